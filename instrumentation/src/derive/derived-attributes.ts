import {
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_ENTRY,
  ATTR_MESSAGE,
  ATTR_SOURCE,
} from '../envelope/attribute-names.js';
import { type AttributeForm, envelopeAttributes } from '../envelope/envelope-attributes.js';
import { sourceOf } from '../envelope/span-source.js';
import { httpStatusEnvelope } from '../http/http-status-envelope.js';

/** What of a span the derivation reads besides its attributes. */
export interface DerivableSpan {
  traceId: string;
  /** '' for a root span. */
  parentSpanId: string;
  kind: 'server' | 'client' | 'other';
}

/**
 * The preload attributes that follow from the span itself, which the preload therefore does not
 * export and the collector puts back before anything reads the row: a correlation id equal to the
 * trace id; the envelope of a server span that failed by its HTTP status alone (the preload sends
 * only the error status: the envelope follows from the status code, http-status-envelope.ts); the
 * `source` of a client span (or of a failed server span) that its semconv attributes imply; the
 * entry mark of a root server span; a failure's `error.type` when it is the envelope's code (else
 * its class). Only absent keys are written, with the values the preload would have set; where the
 * preload decided otherwise it exported its answer (a baggage correlation id, an envelope's own
 * source, `faultline.entry=false`, the instrumentation's error.type), which wins.
 */
export function addDerivedAttributes(
  attrs: Record<string, unknown>,
  span: DerivableSpan,
  form: AttributeForm,
): void {
  const sent = attrs[ATTR_CORRELATION_ID];
  const correlationId = sent === undefined ? span.traceId : String(sent);
  if (sent === undefined) attrs[ATTR_CORRELATION_ID] = span.traceId;
  if (span.kind === 'server' && attrs[ATTR_CLASS] === undefined) {
    const envelope = httpStatusEnvelope(attrs, correlationId);
    if (envelope !== null) {
      Object.assign(
        attrs,
        envelopeAttributes(envelope, attrs, { correlationId, sourceDerivable: true }, form),
      );
    }
  }
  const failed = attrs[ATTR_CLASS] !== undefined;
  if (attrs[ATTR_SOURCE] === undefined && (span.kind === 'client' || (failed && span.kind === 'server'))) {
    const source = sourceOf(attrs);
    if (source !== undefined) attrs[ATTR_SOURCE] = source;
  }
  if (span.kind === 'server' && span.parentSpanId === '' && attrs[ATTR_ENTRY] === undefined) {
    attrs[ATTR_ENTRY] = form === 'stored' ? 'true' : true;
  }
  if (failed && attrs['error.type'] === undefined) {
    attrs['error.type'] = String(attrs[ATTR_CODE] ?? '') || String(attrs[ATTR_CLASS]);
  }
}

/**
 * A failed span's status description: the preload sends it empty when it is the envelope's message
 * (as it always sets it), and the collector restores it from `faultline.message`.
 */
export function derivedStatusMessage(
  attrs: Readonly<Record<string, unknown>>,
  statusMessage: string,
): string {
  if (statusMessage !== '' || attrs[ATTR_CLASS] === undefined) return statusMessage;
  return String(attrs[ATTR_MESSAGE] ?? '');
}
