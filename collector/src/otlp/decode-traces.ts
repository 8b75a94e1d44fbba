import type { DecodeLimits, DecodeResult } from './decode-context.js';
import { decodeTracesJson } from './decode-json.js';
import { decodeTracesProtobuf } from './decode-protobuf.js';
import type { OtlpEncoding } from './otlp-responses.js';

/** Decodes an ExportTraceServiceRequest body into exporter-shaped `otel_traces` rows. */
export function decodeTraces(body: Buffer, encoding: OtlpEncoding, limits: DecodeLimits): DecodeResult {
  return encoding === 'protobuf'
    ? decodeTracesProtobuf(body, limits)
    : decodeTracesJson(body.toString('utf8'), limits);
}
