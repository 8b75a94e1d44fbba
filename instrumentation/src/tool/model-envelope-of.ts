import { createEnvelope } from '../envelope/create-envelope.js';
import { isErrorClass } from '../envelope/error-classes.js';
import { read, readString } from '../error/safe-read.js';
import type { Envelope } from '../types.js';

/**
 * A Faultline model envelope (toModelEnvelope's seven fields) a tool returned, on its own or as the
 * `error` of `{ ok: false, error }` (what the guards hand the model: guard-tools.ts): taken as it
 * is, so the envelope the model saw and the one its span records are the same. Undefined otherwise.
 */
export function modelEnvelopeOf(value: unknown, correlationId?: string): Envelope | undefined {
  const candidate = isModelEnvelope(value) ? value : read(value, 'error');
  if (!isModelEnvelope(candidate)) return undefined;
  const retryAfter = read(candidate, 'retry_after');
  return createEnvelope({
    class: read(candidate, 'class') as Envelope['class'],
    source: readString(candidate, 'source') || 'tool',
    code: readString(candidate, 'code') ?? '',
    message: readString(candidate, 'message') ?? '',
    retryable: read(candidate, 'retryable') === true,
    retryAfter: typeof retryAfter === 'number' ? retryAfter : null,
    correlationId: readString(candidate, 'correlation_id') || correlationId,
  });
}

function isModelEnvelope(v: unknown): boolean {
  return (
    isErrorClass(read(v, 'class')) &&
    typeof read(v, 'code') === 'string' &&
    typeof read(v, 'retryable') === 'boolean' &&
    read(v, 'retry_after') !== undefined
  );
}
