import { attributes, type Envelope } from '@faultline/instrumentation';
import type { TraceRow } from '@faultline/sql';
import { correlationOf } from './correlation-of.js';
import { envelopeOfRow } from './envelope-of-row.js';
import { isPreloadSpan, showsFailure } from './shows-failure.js';

/**
 * Ingest-time classification: a span that shows a failure but carries no envelope (stock
 * OpenTelemetry in any language, an OpenTelemetry Collector in front) gets the `faultline.*`
 * attributes the preload writes, plus `faultline.classified_by = collector`, so `failures` holds
 * it like any other. A span the preload saw is left exactly as it is. Never throws: a span that
 * cannot be classified is stored as it came. Returns whether it wrote an envelope: one built here
 * is already redacted and bounded (createEnvelope's rules), so it needs no sanitizing after.
 */
export function classifyRow(row: TraceRow): boolean {
  const attrs = row.SpanAttributes;
  if (isPreloadSpan(attrs) || !showsFailure(row)) return false;
  let envelope: Envelope;
  try {
    envelope = envelopeOfRow(row, correlationOf(attrs, row.TraceId));
  } catch {
    return false;
  }
  writeEnvelope(attrs, envelope);
  return true;
}

/**
 * The envelope as the OTLP → ClickHouse map stores the preload's attributes: booleans as
 * "true"/"false", numbers in decimal, raw as JSON; retry_after absent when null.
 */
function writeEnvelope(attrs: Record<string, string>, e: Envelope): void {
  attrs[attributes.ATTR_CLASS] = e.class;
  attrs[attributes.ATTR_SOURCE] = e.source;
  attrs[attributes.ATTR_CODE] = e.code;
  attrs[attributes.ATTR_MESSAGE] = e.message;
  attrs[attributes.ATTR_RETRYABLE] = String(e.retryable);
  if (e.retry_after !== null) attrs[attributes.ATTR_RETRY_AFTER] = String(e.retry_after);
  attrs[attributes.ATTR_CORRELATION_ID] = e.correlation_id;
  attrs[attributes.ATTR_RAW] = JSON.stringify(e.raw);
  attrs[attributes.ATTR_CLASSIFIED_BY] = attributes.CLASSIFIED_BY_COLLECTOR;
}
