import { envelopeOfToolResult } from '@faultline/instrumentation';
import { attributes, type Envelope, envelopeAttributes } from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';
import { correlationOf } from './correlation-of.js';
import { envelopeOfRow } from './envelope-of-row.js';
import { isPreloadSpan, showsFailure } from './shows-failure.js';

/**
 * Ingest-time classification: a span that shows a failure but carries no envelope (stock
 * OpenTelemetry in any language, an OpenTelemetry Collector in front) gets the `faultline.*`
 * attributes the preload writes, plus `faultline.classified_by = collector`, so `failures` holds
 * it like any other, and so does an agent's tool call whose recorded result reports a failure. A
 * span the preload saw is left exactly as it is. Never throws: a span that
 * cannot be classified is stored as it came. Returns whether it wrote an envelope: one built here
 * is already redacted and bounded (createEnvelope's rules), so it needs no sanitizing after.
 */
export function classifyRow(row: TraceRow): boolean {
  const attrs = row.SpanAttributes;
  if (isPreloadSpan(attrs)) return false;
  let envelope: Envelope;
  try {
    if (showsFailure(row)) envelope = envelopeOfRow(row, correlationOf(attrs, row.TraceId));
    else {
      // An agent's tool call whose status says nothing failed may have returned a failure report
      // (an MCP isError, { ok: false }): its recorded result is read. Two attribute reads for
      // any other span.
      const reported = envelopeOfToolResult(attrs, correlationOf(attrs, row.TraceId));
      if (reported === null) return false;
      envelope = reported;
    }
  } catch {
    return false;
  }
  // The span carries no correlation id of its own (isPreloadSpan): the envelope's is written.
  Object.assign(
    attrs,
    envelopeAttributes(envelope, attrs, { correlationId: '', sourceDerivable: false }, 'stored'),
  );
  attrs[attributes.ATTR_CLASSIFIED_BY] = attributes.CLASSIFIED_BY_COLLECTOR;
  return true;
}
