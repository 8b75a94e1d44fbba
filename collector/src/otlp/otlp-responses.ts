import protobuf from 'protobufjs/minimal.js';

/** The two OTLP/HTTP body encodings; a response uses the request's. */
export type OtlpEncoding = 'protobuf' | 'json';

export const CONTENT_TYPES: Record<OtlpEncoding, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

/** google.rpc.Code values the receiver uses. */
export const RpcCode = {
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/**
 * ExportTraceServiceResponse, or with `rejectedField` 'rejectedDataPoints' ExportMetricsServiceResponse,
 * 'rejectedLogRecords' ExportLogsServiceResponse (the same wire layout: partial_success = 1
 * { rejected count = 1, error_message = 2 }).
 * `partial_success` is present only when something was rejected or there is a warning, as the
 * spec asks (an empty response means full success).
 */
export function encodeExportResponse(
  encoding: OtlpEncoding,
  rejectedSpans: number,
  message: string,
  rejectedField: 'rejectedSpans' | 'rejectedDataPoints' | 'rejectedLogRecords' = 'rejectedSpans',
): Buffer {
  const partial = rejectedSpans > 0 || message !== '';
  if (encoding === 'json') {
    const body = partial
      ? { partialSuccess: { [rejectedField]: String(rejectedSpans), errorMessage: message } }
      : {};
    return Buffer.from(JSON.stringify(body));
  }
  if (!partial) return Buffer.alloc(0);
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 2).fork();
  if (rejectedSpans > 0) w.uint32((1 << 3) | 0).int64(rejectedSpans);
  if (message) w.uint32((2 << 3) | 2).string(message);
  w.ldelim();
  return Buffer.from(w.finish());
}

/** google.rpc.Status { code, message } — the body of every OTLP/HTTP error response. */
export function encodeStatus(encoding: OtlpEncoding, code: number, message: string): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify({ code, message }));
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 0).int32(code);
  w.uint32((2 << 3) | 2).string(message);
  return Buffer.from(w.finish());
}
