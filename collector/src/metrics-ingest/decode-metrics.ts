import type { DecodeLimits } from '../otlp/decode-context.js';
import type { OtlpEncoding } from '../otlp/otlp-responses.js';
import { decodeMetricsJson } from './decode-metrics-json.js';
import { decodeMetricsProtobuf } from './decode-metrics-protobuf.js';
import type { MetricsDecodeResult } from './metrics-decode-context.js';

/** Decodes an ExportMetricsServiceRequest body into call_counts_1m rows and verdicts. */
export function decodeMetrics(
  body: Buffer,
  encoding: OtlpEncoding,
  limits: DecodeLimits,
): MetricsDecodeResult {
  return encoding === 'protobuf'
    ? decodeMetricsProtobuf(body, limits)
    : decodeMetricsJson(body.toString('utf8'), limits);
}
