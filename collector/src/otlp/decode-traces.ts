import type { SpanLogJoin } from '../logs-ingest/span-log-join.js';
import type { DecodeLimits, DecodeResult } from './decode-context.js';
import { decodeTracesJson } from './decode-json.js';
import { decodeTracesProtobuf } from './decode-protobuf.js';
import type { OtlpEncoding } from './otlp-responses.js';

/**
 * Decodes an ExportTraceServiceRequest body into exporter-shaped `otel_traces` rows; with `join`, a
 * span is classified with the log record that explains it (logs-ingest/span-log-join.ts).
 */
export function decodeTraces(
  body: Buffer,
  encoding: OtlpEncoding,
  limits: DecodeLimits,
  join?: SpanLogJoin,
): DecodeResult {
  return encoding === 'protobuf'
    ? decodeTracesProtobuf(body, limits, join)
    : decodeTracesJson(body.toString('utf8'), limits, join);
}
