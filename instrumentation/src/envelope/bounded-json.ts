/** Longest `faultline.raw` string on a span or a stored row: every writer serializes raw here. */
export const RAW_MAX_CHARS = 4096;

/** `raw` as the span carries it: JSON, and still valid JSON when cut to RAW_MAX_CHARS. */
export function boundedJson(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw ?? null) ?? 'null';
  } catch {
    text = 'null';
  }
  // Cutting JSON mid-way would leave an unparseable string: keep it valid by wrapping the prefix.
  return text.length <= RAW_MAX_CHARS
    ? text
    : JSON.stringify({ truncated: true, prefix: text.slice(0, RAW_MAX_CHARS - 64) });
}
