import type { ServiceDefinition } from '@grpc/grpc-js';

/** The one method this receiver serves, as OTLP/gRPC names it. */
export const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

/** Bytes in, bytes out: grpc-js only frames (and gunzips); the project's codecs do the rest. */
const passthrough = (b: Buffer): Buffer => b;

/**
 * `opentelemetry.proto.collector.trace.v1.TraceService`, with identity (de)serializers: the request
 * reaches the handler as the message's raw bytes, so the receiver's own protobuf decoder (bounds
 * checks, limits, rows straight from the wire) reads it as it reads an OTLP/HTTP body, and nothing
 * decodes it twice. Responses are ExportTraceServiceResponse bytes from `encodeExportResponse`.
 */
export const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: TRACE_EXPORT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: passthrough,
    requestDeserialize: passthrough,
    responseSerialize: passthrough,
    responseDeserialize: passthrough,
  },
};
