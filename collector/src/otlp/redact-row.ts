import { isSecretKey, REDACTED, redactText } from '@faultline/instrumentation';
import type { TraceRow } from '@faultline/sql';

/** The envelope's own attributes: sanitizeEnvelopeAttributes (or the collector's classifier) bounds and redacts them. */
const ENVELOPE_PREFIX = 'faultline.';

/**
 * Nothing stored carries a credential: a span is hostile input, and a stock SDK configured to
 * capture request headers sends `Authorization: Bearer …` as `http.request.header.authorization`.
 * Every attribute named like a secret (authorization, cookie, *password*, *token*, API-key
 * headers, a connection string) is replaced whole; every other value, the status message and
 * every event's and link's attributes keep their text with well-known key shapes redacted (the
 * envelope's own redaction, redactText). Before the row is stored, so no page, console query or
 * export can show one.
 */
export function redactRowSecrets(row: TraceRow): void {
  redactAttributes(row.SpanAttributes);
  redactAttributes(row.ResourceAttributes);
  if (row.StatusMessage !== '') row.StatusMessage = redactText(row.StatusMessage);
  for (const attrs of row['Events.Attributes']) redactAttributes(attrs);
  for (const attrs of row['Links.Attributes']) redactAttributes(attrs);
}

export function redactAttributes(attrs: Record<string, string>): void {
  for (const key in attrs) {
    if (key.startsWith(ENVELOPE_PREFIX)) continue;
    const value = attrs[key]!;
    if (value === '') continue;
    if (isSecretKey(key) || isSecretKey(lastSegment(key))) {
      attrs[key] = REDACTED;
      continue;
    }
    const redacted = redactText(value);
    if (redacted !== value) attrs[key] = redacted;
  }
}

/** `db.connection_string` → `connection_string`: semconv namespaces a secret's name. */
function lastSegment(key: string): string {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? key : key.slice(dot + 1);
}
