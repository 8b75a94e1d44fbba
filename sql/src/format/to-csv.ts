/**
 * A cell a spreadsheet would run as a formula: it starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return (OWASP "CSV injection"). Span data is attacker-controlled, and an exported
 * failure message like `=HYPERLINK(…)` must open as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number, which a leading `-` does not make a formula: left as is so it stays a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function neutralized(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * RFC 4180 CSV: quote every field that needs it, arrays and objects as JSON, and formula-looking
 * cells prefixed with `'` so spreadsheets show them as text.
 */
export function toCsv(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (v: unknown): string => {
    const raw = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const text = typeof v === 'number' || typeof v === 'bigint' ? raw : neutralized(raw);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join(
    '\r\n',
  );
}
