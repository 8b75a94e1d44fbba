import { visibleText } from './visible-text.js';

/** A cell wider than this is cut with `…` in a terminal table (csv and json keep every character). */
export const MAX_TABLE_CELL = 80;

/**
 * Rows as an aligned text table for a terminal: a header, a rule, one line per row. Span data is
 * hostile: control characters (an ANSI escape would drive the terminal) and bidi overrides are
 * shown as visible markers, and newlines as ⏎, so a cell stays on its line and shows what was sent.
 */
export function toTextTable(columns: string[], rows: Record<string, unknown>[]): string {
  const cell = (v: unknown): string => {
    const raw = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const shown = visibleText(raw.replace(/\r?\n/g, '⏎').replace(/\t/g, ' '));
    return shown.length > MAX_TABLE_CELL ? `${shown.slice(0, MAX_TABLE_CELL - 1)}…` : shown;
  };
  const head = columns.map(cell);
  const body = rows.map((r) => columns.map((c) => cell(r[c])));
  const width = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(width[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), width.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
