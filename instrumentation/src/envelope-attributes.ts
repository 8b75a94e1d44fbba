import {
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MESSAGE,
  ATTR_RAW,
  ATTR_RETRY_AFTER,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from './attributes.js';
import { boundedJson } from './bounded-json.js';
import { sourceOf } from './span-source.js';
import type { Envelope } from './types.js';

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
 * The envelope as span attributes, the one mapping of both ends: the preload writes it on a
 * failed span, and the collector rebuilds it for a failure the preload left to it to classify
 * (derived-attributes.ts).
 */
export function envelopeAttributes(
  envelope: Envelope,
  current: Readonly<Record<string, unknown>>,
  span: EnvelopeSpan,
): Record<string, string | number | boolean> {
  const attrs: Record<string, string | number | boolean> = {
    [ATTR_CLASS]: envelope.class,
    [ATTR_CODE]: envelope.code,
    [ATTR_MESSAGE]: envelope.message,
    [ATTR_RETRYABLE]: envelope.retryable,
    [ATTR_RAW]: boundedJson(envelope.raw),
  };
  if (!span.sourceDerivable || envelope.source !== sourceOf(current)) attrs[ATTR_SOURCE] = envelope.source;
  if (envelope.retry_after !== null) attrs[ATTR_RETRY_AFTER] = envelope.retry_after;
  if (envelope.correlation_id && envelope.correlation_id !== span.correlationId) {
    attrs[ATTR_CORRELATION_ID] = envelope.correlation_id;
  }
  return attrs;
}
