import type { ServiceDefinition } from '@grpc/grpc-js';

/** MetricsService's one method, as OTLP/gRPC names it. */
export const METRICS_EXPORT_PATH = '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export';

const passthrough = (b: Buffer): Buffer => b;

/**
 * `opentelemetry.proto.collector.metrics.v1.MetricsService`, defined like TRACE_SERVICE
 * (trace-service.ts): identity (de)serializers, so the request reaches the handler as raw bytes
 * for the receiver's own bounds-checked decoder, and responses are ExportMetricsServiceResponse
 * bytes from `encodeExportResponse`.
 */
export const METRICS_SERVICE: ServiceDefinition = {
  Export: {
    path: METRICS_EXPORT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: passthrough,
    requestDeserialize: passthrough,
    responseSerialize: passthrough,
    responseDeserialize: passthrough,
  },
};
