const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

/**
 * True when an error means "ClickHouse could not be reached" rather than "ClickHouse rejected the
 * statement": the first is worth waiting out, the second is a bug to report.
 */
export function isConnectionError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (typeof message === 'string' && /timeout|socket hang up|ECONNREFUSED|ECONNRESET/i.test(message))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
