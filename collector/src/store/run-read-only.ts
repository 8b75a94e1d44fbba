import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import type { ColumnMeta, QueryResult, RunReadOnlyOptions } from '../types.js';

const DEFAULT_MAX_ROWS = 10_000;
const DEFAULT_MAX_SECONDS = 10;

function positiveInt(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${what} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Runs one statement for the SQL console under ClickHouse `readonly = 2` (reads and setting
 * changes only; `readonly` itself cannot be lowered), with a row cap and a time limit. The
 * engine refuses writes, so no SQL inspection is needed here.
 *
 * `readOnlySession` is true when the client's session was already put in readonly mode (embedded
 * chDB, where a per-request setting would persist in the shared session).
 */
export async function runReadOnly<T>(
  client: ClickHouseClient,
  readOnlySession: boolean,
  sql: string,
  params: Record<string, unknown> = {},
  opts: RunReadOnlyOptions = {},
): Promise<QueryResult<T>> {
  const maxRows = positiveInt(opts.maxRows, DEFAULT_MAX_ROWS, 'maxRows');
  const maxSeconds = positiveInt(opts.maxExecutionSeconds, DEFAULT_MAX_SECONDS, 'maxExecutionSeconds');
  const statement = sql.trim().replace(/;\s*$/, '');
  if (!statement) throw new Error('The SQL console needs a statement, e.g. SELECT count() FROM failures');
  const settings: ClickHouseSettings = {
    max_result_rows: String(maxRows + 1),
    result_overflow_mode: 'break',
    max_execution_time: maxSeconds,
  };
  if (!readOnlySession) settings.readonly = '2';
  const rs = await client.query({
    query: statement,
    format: 'JSON',
    query_params: params,
    clickhouse_settings: settings,
    abort_signal: opts.signal,
  });
  const result = await rs.json<T>();
  const truncated = result.data.length > maxRows;
  return {
    rows: truncated ? result.data.slice(0, maxRows) : result.data,
    meta: (result.meta ?? []) as ColumnMeta[],
    truncated,
    statistics: result.statistics,
  };
}
