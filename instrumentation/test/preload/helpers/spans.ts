import type { ReceivedSpan } from './otlp-receiver.js';

export const SERVER = 2;
export const CLIENT = 3;
export const STATUS_ERROR = 2;

/** The client span whose URL ends with `suffix` (HTTP) and that was made by `service`. */
export function httpClientSpans(spans: ReceivedSpan[], suffix: string): ReceivedSpan[] {
  return spans.filter((s) => s.kind === CLIENT && String(s.attributes['url.full'] ?? '').endsWith(suffix));
}

export function dbClientSpans(spans: ReceivedSpan[], system: string): ReceivedSpan[] {
  return spans.filter(
    (s) =>
      s.kind === CLIENT &&
      (s.attributes['db.system'] === system || s.attributes['db.system.name'] === system),
  );
}

/**
 * Envelope attributes of a span, as the collector will read them. faultline.entry (which service
 * received the request) is about the request, not the failure: read it from the span itself.
 */
export function envelopeOf(span: ReceivedSpan | undefined): Record<string, unknown> {
  if (!span) throw new Error('expected span was not exported');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(span.attributes)) {
    if (k.startsWith('faultline.') && k !== 'faultline.entry') out[k.slice('faultline.'.length)] = v;
  }
  return out;
}
