import type { DecodeLimits } from '../otlp/decode-context.js';
import type { OtlpEncoding } from '../otlp/otlp-responses.js';
import { decodeLogsJson } from './decode-logs-json.js';
import { decodeLogsProtobuf } from './decode-logs-protobuf.js';
import type { LogsDecodeResult } from './logs-decode-context.js';
import type { SpanLogJoin } from './span-log-join.js';

/**
 * Decodes an ExportLogsServiceRequest body into otel_logs rows, failures classified; with `join`,
 * records are joined to the spans they explain (span-log-join.ts).
 */
export function decodeLogs(
  body: Buffer,
  encoding: OtlpEncoding,
  limits: DecodeLimits,
  join?: SpanLogJoin,
): LogsDecodeResult {
  return encoding === 'protobuf'
    ? decodeLogsProtobuf(body, limits, join)
    : decodeLogsJson(body.toString('utf8'), limits, join);
}
