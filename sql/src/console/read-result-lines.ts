import type { ColumnMeta, QueryResult } from '../types.js';
import type { ConsoleLimits } from './console-limits.js';

/**
 * Builds the result from RESULT_FORMAT lines, reading no further than the row and byte caps: the
 * engine stops at one row past the cap (max_result_rows with `break`), and stopping the iteration
 * here stops the stream, so a huge result never reaches Node whole.
 */
export async function readResultLines<T>(
  lines: AsyncIterable<string>,
  limits: Pick<ConsoleLimits, 'maxRows' | 'maxResultBytes'>,
): Promise<QueryResult<T>> {
  let names: string[] | undefined;
  let types: string[] | undefined;
  const rows: T[] = [];
  let bytes = 0;
  let truncated = false;
  for await (const line of lines) {
    if (!names) {
      names = JSON.parse(line) as string[];
      continue;
    }
    if (!types) {
      types = JSON.parse(line) as string[];
      continue;
    }
    bytes += line.length;
    if (rows.length === limits.maxRows || bytes > limits.maxResultBytes) {
      truncated = true;
      break;
    }
    const values = JSON.parse(line) as unknown[];
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => {
      row[name] = values[i];
    });
    rows.push(row as T);
  }
  const meta: ColumnMeta[] = (names ?? []).map((name, i) => ({ name, type: types?.[i] ?? '' }));
  return { rows, meta, truncated };
}
