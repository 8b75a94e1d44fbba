import type { ClickHouseClient } from '@clickhouse/client';

/** Longest retention accepted: 100 years, well past any sane setting, small enough to be a typo guard. */
const MAX_TTL_DAYS = 36_500;

/** Tables that expire with FAULTLINE_TTL_DAYS, and the DateTime expression each one expires on. */
export const TTL_COLUMNS: Readonly<Record<string, string>> = {
  otel_traces: 'toDateTime(Timestamp)',
  otel_traces_trace_id_ts: 'toDateTime(Start)',
  otel_logs: 'TimestampTime',
  failures: 'toDateTime(Timestamp)',
  calls_1m: 'minute',
  failure_codes_1m: 'minute',
  dependency_calls_1m: 'minute',
  call_counts_1m: 'minute',
  service_endpoints: 'hour',
  workflows_rollup: 'toDateTime(started_at)',
  retry_attempts: 'toDateTime(Timestamp)',
  sampled_minutes: 'minute',
  tool_calls: 'toDateTime(Timestamp)',
};

/**
 * Validates a TTL setting strictly: DDL cannot take query parameters, so the value is spliced into
 * `ALTER TABLE … MODIFY TTL` and must be a plain non-negative integer. 0 means keep forever.
 */
export function parseTtlDays(value: unknown, origin: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,6}$/.test(text) || Number(text) > MAX_TTL_DAYS) {
    throw new Error(
      `${origin} must be a whole number of days between 0 and ${MAX_TTL_DAYS} (0 keeps data forever), got ${JSON.stringify(value)}`,
    );
  }
  return Number(text);
}

/**
 * Brings each table's TTL in line with `ttlDays`, touching only tables whose TTL differs, so a
 * restart with the same setting issues no ALTER.
 */
export async function applyTtl(client: ClickHouseClient, ttlDays: number): Promise<void> {
  const days = parseTtlDays(ttlDays, 'ttlDays');
  const rs = await client.query({
    query:
      'SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN {names:Array(String)}',
    query_params: { names: Object.keys(TTL_COLUMNS) },
    format: 'JSONEachRow',
  });
  const tables = await rs.json<{ name: string; engine_full: string }>();
  for (const { name, engine_full } of tables) {
    const column = TTL_COLUMNS[name];
    if (!column) continue;
    const hasTtl = / TTL /.test(engine_full);
    if (days === 0) {
      if (hasTtl) await client.command({ query: `ALTER TABLE ${name} REMOVE TTL` });
      continue;
    }
    if (hasTtl && engine_full.includes(`toIntervalDay(${days})`)) continue;
    await client.command({ query: `ALTER TABLE ${name} MODIFY TTL ${column} + toIntervalDay(${days})` });
  }
}
