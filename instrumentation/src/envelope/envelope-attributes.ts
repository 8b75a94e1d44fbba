import type { Envelope } from '../types.js';
import {
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MESSAGE,
  ATTR_RAW,
  ATTR_RETRY_AFTER,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from './attribute-names.js';
import { boundedJson } from './bounded-json.js';
import { sourceOf } from './span-source.js';

/** What of the span decides which envelope attributes need not travel. */
export interface EnvelopeSpan {
  /** The span's own correlation id: an envelope carrying the same one leaves it off. */
  correlationId: string;
  /**
   * The collector derives the source from the span's semconv attributes (client and server spans
   * under the preload's lean export): an envelope whose source is that one leaves it off.
   */
  sourceDerivable: boolean;
}

/**
 * How a map holds attribute values: `stored` as the collector's rows do (every value a string,
 * booleans "true"/"false", numbers in decimal), `exported` as the span carries them.
 */
export type AttributeForm = 'stored' | 'exported';

/**
 * The envelope as span attributes, the one mapping of both ends and both forms: the preload writes
 * it on a failed span (exported), and the collector on a row it classified itself or whose
 * envelope it derived (stored). What follows from the span is left off: the rest of the pipeline
 * reads an absent retry_after as null, an absent correlation id as the span's, an absent source
 * as the one its semconv attributes imply (derived-attributes.ts).
 */
export function envelopeAttributes(
  envelope: Envelope,
  current: Readonly<Record<string, unknown>>,
  span: EnvelopeSpan,
  form: 'stored',
): Record<string, string>;
export function envelopeAttributes(
  envelope: Envelope,
  current: Readonly<Record<string, unknown>>,
  span: EnvelopeSpan,
  form?: AttributeForm,
): Record<string, string | number | boolean>;
export function envelopeAttributes(
  envelope: Envelope,
  current: Readonly<Record<string, unknown>>,
  span: EnvelopeSpan,
  form: AttributeForm = 'exported',
): Record<string, string | number | boolean> {
  const attrs: Record<string, string | number | boolean> = { [ATTR_CLASS]: envelope.class };
  if (!span.sourceDerivable || envelope.source !== sourceOf(current)) attrs[ATTR_SOURCE] = envelope.source;
  attrs[ATTR_CODE] = envelope.code;
  attrs[ATTR_MESSAGE] = envelope.message;
  attrs[ATTR_RETRYABLE] = envelope.retryable;
  if (envelope.retry_after !== null) attrs[ATTR_RETRY_AFTER] = envelope.retry_after;
  if (envelope.correlation_id && envelope.correlation_id !== span.correlationId) {
    attrs[ATTR_CORRELATION_ID] = envelope.correlation_id;
  }
  attrs[ATTR_RAW] = boundedJson(envelope.raw);
  if (form === 'stored') for (const key in attrs) attrs[key] = String(attrs[key]);
  return attrs;
}
