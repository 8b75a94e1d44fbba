import type { ServiceDefinition } from '@grpc/grpc-js';

/** LogsService's one method, as OTLP/gRPC names it. */
export const LOGS_EXPORT_PATH = '/opentelemetry.proto.collector.logs.v1.LogsService/Export';

const passthrough = (b: Buffer): Buffer => b;

/**
 * `opentelemetry.proto.collector.logs.v1.LogsService`, defined like TRACE_SERVICE
 * (trace-service.ts): identity (de)serializers, so the request reaches the handler as raw bytes for
 * the receiver's own bounds-checked decoder, and responses are ExportLogsServiceResponse bytes from
 * `encodeExportResponse`.
 */
export const LOGS_SERVICE: ServiceDefinition = {
  Export: {
    path: LOGS_EXPORT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: passthrough,
    requestDeserialize: passthrough,
    responseSerialize: passthrough,
    responseDeserialize: passthrough,
  },
};
