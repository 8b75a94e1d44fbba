import { read } from './safe-read.js';

/**
 * An error that carries its status bare (`{ status: 429 }`) may carry the server's wait beside it,
 * as hand-written tool and SDK errors do: `retryAfter` / `retry_after` in seconds (a number or the
 * header's text, seconds or an HTTP-date), `retryAfterMs` in milliseconds. Given back as the
 * header it came from, so the HTTP classifier reads it by its one rule (Retry-After, retry-after-ms).
 */
export function retryAfterFieldHeaders(err: unknown): Record<string, string> | undefined {
  const seconds = read(err, 'retryAfter') ?? read(err, 'retry_after');
  if (typeof seconds === 'number' && Number.isFinite(seconds)) return { 'retry-after': String(seconds) };
  if (typeof seconds === 'string' && seconds.trim() !== '') return { 'retry-after': seconds.trim() };
  const ms = read(err, 'retryAfterMs');
  if (typeof ms === 'number' && Number.isFinite(ms)) return { 'retry-after-ms': String(ms) };
  return undefined;
}
