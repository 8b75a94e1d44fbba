import { ATTR_MESSAGE, ATTR_RAW } from './attribute-names.js';
import { boundedJson } from './bounded-json.js';
import { MAX_MESSAGE_CHARS } from './create-envelope.js';
import { boundedText, toRaw } from './to-raw.js';

/**
 * The envelope's rules for the text fields a span brings itself: a service without the preload
 * (any SDK, any language) or a hostile client can set `faultline.message` and `faultline.raw`
 * directly, so the collector applies the preload's own redaction and bounds before storing them,
 * and a page never shows a planted credential. The preload's values pass through unchanged: they
 * are already redacted and within bounds.
 *   - message: boundedText (redacted, then at most MAX_MESSAGE_CHARS characters);
 *   - raw: parsed as JSON when it is JSON (else kept as a string), then toRaw: secret keys and
 *     values redacted, depth, keys, items and size capped, serialized again as every writer
 *     serializes it (boundedJson).
 */
export function sanitizeEnvelopeAttributes(attrs: Record<string, string>): void {
  const message = attrs[ATTR_MESSAGE];
  if (message !== undefined && message !== '') attrs[ATTR_MESSAGE] = boundedText(message, MAX_MESSAGE_CHARS);
  const raw = attrs[ATTR_RAW];
  if (raw !== undefined && raw !== '') attrs[ATTR_RAW] = boundedJson(toRaw(parseJson(raw)));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
