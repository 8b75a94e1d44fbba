/**
 * The HTTP response status a span carries (either semconv generation: a number on an exported
 * span, its decimal text on a stored row), or undefined. Only an integer from 100 to 999 is a
 * status: that is the range classifyHttpResponse accepts, so whatever passes here can be classified
 * (404.5, 1000 or an empty string would make it throw), and the preload and the collector agree on
 * which spans failed by their status.
 */
export function httpStatusOf(attrs: Readonly<Record<string, unknown>>): number | undefined {
  const raw = attrs['http.response.status_code'] ?? attrs['http.status_code'];
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 999 ? n : undefined;
}

/**
 * The span's HTTP status when it alone says the span failed (4xx/5xx), else undefined: the rule
 * the preload applies to a server span and the collector to rebuild its envelope.
 */
export function failingHttpStatusOf(attrs: Readonly<Record<string, unknown>>): number | undefined {
  const status = httpStatusOf(attrs);
  return status !== undefined && status >= 400 ? status : undefined;
}
