import { isSecretKey, REDACTED, redactText } from '@faultline/instrumentation';
import { visibleText } from '@faultline/sql/format';

/** One attribute of a span, an event or a resource as a page may show it. */
export interface ShownValue {
  key: string;
  value: string;
  /** The stored value's full length in characters. */
  length: number;
  /** Less than the whole value is shown: the rest is behind "full value". */
  cut: boolean;
}

/** Keys are names, not prose: a longer one is cut (and said to be) at this length. */
const KEY_CHARS = 200;

/**
 * Span text as a page may show it, with the redaction the envelope gets at the collector
 * (instrumentation's redactText: bearer tokens, `password=…`, api keys in query strings, URL
 * passwords, known key formats) applied here, because attributes, events and resources are
 * stored as services sent them. Redaction runs on the stored head (longer than `max`) before the
 * cut, as boundedText does, so a secret at the edge is removed whole rather than shown in part;
 * then invisible and reordering characters are made visible.
 */
export function shownText(head: string, length: number, max: number): { text: string; cut: boolean } {
  const redacted = redactText(head);
  const cut = length > max || redacted.length > max;
  return { text: visibleText(cut ? redacted.slice(0, max) : redacted), cut };
}

/**
 * An attribute as shown: a key that names a secret (`Authorization`, `*password*`, `*_token`,
 * `x-api-key`, cookies: instrumentation's isSecretKey) shows no value at all; any other value is
 * redacted as free text.
 */
export function shownAttribute(key: string, head: string, length: number, max: number): ShownValue {
  const k = shownText(key, key.length, KEY_CHARS);
  const shownKey = k.cut ? `${k.text}…` : k.text;
  if (isSecretKey(key)) return { key: shownKey, value: REDACTED, length, cut: false };
  const v = shownText(head, length, max);
  return { key: shownKey, value: v.text, length, cut: v.cut };
}
