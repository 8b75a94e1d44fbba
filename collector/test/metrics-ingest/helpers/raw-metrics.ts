import { Client, credentials, Metadata } from '@grpc/grpc-js';
import protobuf from 'protobufjs/minimal.js';
import { METRICS_EXPORT_PATH } from '../../../src/grpc/metrics-service.js';

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

export interface GrpcAnswer {
  code: number;
  details: string;
  response?: Buffer;
}

/** One MetricsService/Export call with raw request bytes. */
export function exportMetricsRaw(address: string, body: Buffer, token?: string): Promise<GrpcAnswer> {
  const client = new Client(address, credentials.createInsecure());
  const metadata = new Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  const identity = (b: Buffer) => b;
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      METRICS_EXPORT_PATH,
      identity,
      identity,
      body,
      metadata,
      { deadline: Date.now() + 15_000 },
      (err, response) => {
        client.close();
        if (err) resolve({ code: err.code, details: err.details });
        else resolve({ code: 0, details: '', response });
      },
    );
  });
}

/** ExportMetricsServiceResponse.partial_success (zeros when absent). */
export function metricsPartialSuccess(response: Buffer): {
  rejectedDataPoints: number;
  errorMessage: string;
} {
  const out = { rejectedDataPoints: 0, errorMessage: '' };
  const r = protobuf.Reader.create(response);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 !== 1) {
      r.skipType(tag & 7);
      continue;
    }
    const inner = protobuf.Reader.create(r.bytes());
    while (inner.pos < inner.len) {
      const t = inner.uint32();
      if (t >>> 3 === 1) out.rejectedDataPoints = Number(inner.int64());
      else if (t >>> 3 === 2) out.errorMessage = inner.string();
      else inner.skipType(t & 7);
    }
  }
  return out;
}
