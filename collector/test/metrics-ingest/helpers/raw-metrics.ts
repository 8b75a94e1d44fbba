import { METRICS_EXPORT_PATH } from '../../../src/grpc/metrics-service.js';
import { exportPartialSuccess, exportRaw, type GrpcAnswer } from '../../grpc/helpers/grpc-client.js';

/** An OTLP/JSON ExportMetricsServiceRequest: one resource, one scope, the given metrics. */
export function metricsJson(service: string, metrics: object[]): string {
  return JSON.stringify({
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeMetrics: [{ scope: { name: 'raw-test' }, metrics }],
      },
    ],
  });
}

/** A delta Sum of faultline.calls with the given points, as OTLP/JSON. */
export function deltaCalls(points: object[], name = 'faultline.calls'): object {
  return { name, sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: points } };
}

/** A point's time: now, in unix nanoseconds as OTLP/JSON carries them. */
export function nowNanos(offsetSeconds = 0): string {
  return `${BigInt(Math.floor(Date.now() / 1000) + offsetSeconds) * 1_000_000_000n}`;
}

/** One MetricsService/Export call with raw request bytes. */
export function exportMetricsRaw(address: string, body: Buffer, token?: string): Promise<GrpcAnswer> {
  return exportRaw(address, body, { token, path: METRICS_EXPORT_PATH });
}

/** ExportMetricsServiceResponse.partial_success (zeros when absent). */
export function metricsPartialSuccess(response: Buffer): {
  rejectedDataPoints: number;
  errorMessage: string;
} {
  const { rejected, errorMessage } = exportPartialSuccess(response);
  return { rejectedDataPoints: rejected, errorMessage };
}
