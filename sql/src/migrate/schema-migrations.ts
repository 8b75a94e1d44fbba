import { hostname } from 'node:os';
import type { ClickHouseClient } from '@clickhouse/client';
import { insertBatch } from '../connection/insert-batch.js';

/**
 * One recorded step (the latest row of its version, name, kind and checksum). A backfill's checksum
 * is that of the views that fill it (viewsChecksum); 'stale' marks a backfill whose target was
 * written by a view the migrator has since created again under a changed definition, or whose
 * source was rebuilt under it: its target must be rebuilt.
 */
export type StepState = 'applied' | 'started' | 'stale';

export interface AppliedStep {
  version: number;
  name: string;
  kind: 'schema' | 'backfill';
  checksum: string;
  state: StepState;
  detail: string;
}

export const MIGRATIONS_TABLE = 'schema_migrations';

/** Whether the table exists yet (a database no migrator has touched has none). */
export async function hasMigrationsTable(client: ClickHouseClient): Promise<boolean> {
  const rs = await client.query({
    query: 'SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = {t:String}',
    query_params: { t: MIGRATIONS_TABLE },
    format: 'JSONEachRow',
  });
  const rows = (await rs.json()) as { n: string | number }[];
  return Number(rows[0]?.n ?? 0) > 0;
}

export async function readAppliedSteps(client: ClickHouseClient): Promise<AppliedStep[]> {
  if (!(await hasMigrationsTable(client))) return [];
  const rs = await client.query({
    query: `SELECT version, name, kind, checksum, argMax(state, applied_at) AS state, argMax(detail, applied_at) AS detail
            FROM ${MIGRATIONS_TABLE} GROUP BY version, name, kind, checksum ORDER BY kind, version, name`,
    format: 'JSONEachRow',
  });
  return ((await rs.json()) as Record<string, unknown>[]).map((r) => ({
    version: Number(r.version),
    name: String(r.name),
    kind: r.kind === 'backfill' ? 'backfill' : 'schema',
    checksum: String(r.checksum),
    state: r.state === 'started' || r.state === 'stale' ? r.state : 'applied',
    detail: String(r.detail ?? ''),
  }));
}

/** The schema's version: the highest schema step recorded (0 for a database never migrated). */
export function schemaVersionOf(applied: readonly AppliedStep[]): number {
  return Math.max(0, ...applied.filter((a) => a.kind === 'schema').map((a) => a.version));
}

let lastRecordedMs = 0;

/**
 * Strictly increasing record times (ms) within this process: a step's latest state is its row with
 * the greatest time, so two records of one step must never share a millisecond.
 */
function recordedAtMs(): number {
  lastRecordedMs = Math.max(Date.now(), lastRecordedMs + 1);
  return lastRecordedMs;
}

export async function recordStep(
  client: ClickHouseClient,
  step: { version: number; name: string; kind: string; checksum: string },
  state: StepState,
  durationMs: number,
  detail = '',
): Promise<void> {
  const row = {
    version: step.version,
    name: step.name,
    kind: step.kind,
    checksum: step.checksum,
    state,
    detail,
    applied_at: (recordedAtMs() / 1000).toFixed(3),
    duration_ms: Math.round(durationMs),
    applied_by: `${hostname()} pid ${process.pid}`,
  };
  await insertBatch(client, `${JSON.stringify(row)}\n`, { table: MIGRATIONS_TABLE });
}
