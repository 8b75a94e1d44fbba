import { HeaderReader, retryAfterFrom } from '../http/headers.js';

/** Retry-After (seconds, HTTP-date or the -ms forms) from any headers shape; null when absent. */
export function retryAfterOf(headers: unknown, nowMs: number = Date.now()): number | null {
  if (headers == null || typeof headers !== 'object') return null;
  try {
    const reader = new HeaderReader(headers);
    return retryAfterFrom((name) => reader.get(name), nowMs);
  } catch {
    return null;
  }
}
