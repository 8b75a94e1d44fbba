import type { ClickHouseClient } from '@clickhouse/client';
import type { ColumnMeta, QueryResult, RunNamedOptions } from '../types.js';
import { bindParams, loadNamedQuery } from './named-queries.js';

const DEFAULT_MAX_SECONDS = 30;

/**
 * The one typed way to run SQL from code: a named file in sql/queries, its `{p:Type}` placeholders
 * validated and sent as ClickHouse query parameters. There is deliberately no raw-string variant.
 */
export async function runNamed<T>(
  client: ClickHouseClient,
  name: string,
  params: Record<string, unknown> = {},
  opts: RunNamedOptions = {},
): Promise<QueryResult<T>> {
  const query = loadNamedQuery(name);
  const maxSeconds = opts.maxExecutionSeconds ?? DEFAULT_MAX_SECONDS;
  if (!Number.isInteger(maxSeconds) || maxSeconds <= 0) {
    throw new Error(`maxExecutionSeconds must be a positive integer, got ${maxSeconds}`);
  }
  const bound = bindParams(query, params);
  const rs = await client.query({
    query: query.sql.trim().replace(/;\s*$/, ''),
    format: 'JSON',
    query_params: bound,
    clickhouse_settings:
      opts.maxExecutionSeconds || opts.settings
        ? {
            ...opts.settings,
            ...(opts.maxExecutionSeconds ? { max_execution_time: opts.maxExecutionSeconds } : {}),
          }
        : undefined,
    abort_signal: opts.signal,
  });
  const result = await rs.json<T>();
  return { rows: result.data, meta: (result.meta ?? []) as ColumnMeta[], statistics: result.statistics };
}
