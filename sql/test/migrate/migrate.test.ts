import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { openStore } from '../../src/index.js';
import { applyMigration, planMigration } from '../../src/migrate/migrate.js';
import { knownSchemaVersion, listSchemaSteps } from '../../src/migrate/schema-steps.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeFailureRow } from '../support/trace-row-fixture.js';

const HOUR = 3_600_000;
const T = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
const sqlDir = resolveSqlDir();

let dir: string;
let store: Store;

async function rows<T = Record<string, unknown>>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}
const failure = (ms: number, code: string, correlationId: string): TraceRow =>
  makeFailureRow(
    {
      class: 'transient',
      source: 'db',
      code,
      message: code,
      retryable: 'true',
      correlation_id: correlationId,
    },
    { Timestamp: dateTime64(ms), ServiceName: 'orders' },
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-migrate-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the migrator', () => {
  it('records every schema step once; opening again applies nothing', async () => {
    const steps = listSchemaSteps(sqlDir);
    const recorded = await rows<{ version: number; name: string }>(
      "SELECT version, name FROM schema_migrations WHERE kind = 'schema' ORDER BY version",
    );
    expect(recorded.map((r) => `${String(r.version).padStart(3, '0')}_${r.name}`)).toEqual(
      steps.map((s) => s.file.slice('sql/schema/'.length, -'.sql'.length)),
    );
    const plan = await planMigration(store.client, sqlDir);
    expect(plan.current).toBe(knownSchemaVersion(sqlDir));
    expect(plan.schema).toEqual([]);
    expect(plan.backfills).toEqual([]); // the embedded store ran them at open (nothing to fill)
  });

  it('backfills the rollups with what was written before their views existed, exactly once', async () => {
    // Before the "upgrade": 5 failures coded 40001 two hours back, 3 coded 57P01 one hour back, in
    // 4 requests; then the rollups are emptied and their backfills forgotten, as on a database
    // whose views came later. After it: 2 more 40001 now, which the views record themselves.
    const before = [
      ...Array.from({ length: 5 }, (_, i) => failure(T - 2 * HOUR + i * 1000, '40001', `wf-a-${i % 2}`)),
      ...Array.from({ length: 3 }, (_, i) => failure(T - HOUR + i * 1000, '57P01', `wf-b-${i % 2}`)),
    ];
    await insertBatch(store.client, serializeRows(before));
    for (const t of [
      'failure_codes_1m',
      'retry_attempts',
      'workflows_rollup',
      'dependency_calls_1m',
      'service_endpoints',
    ])
      await store.client.command({ query: `TRUNCATE TABLE ${t}` });
    await store.client.command({
      query: "ALTER TABLE schema_migrations DELETE WHERE kind = 'backfill'",
      clickhouse_settings: { mutations_sync: '2' },
    });
    await insertBatch(
      store.client,
      serializeRows([failure(T, '40001', 'wf-c'), failure(T + 1000, '40001', 'wf-c')]),
    );

    const plan = await planMigration(store.client, sqlDir);
    expect(plan.backfills.map((b) => b.target)).toEqual([
      'failures',
      'calls_1m',
      'dependency_calls_1m',
      'service_endpoints',
      'tool_calls',
      'workflows_rollup',
      'failure_codes_1m',
      'retry_attempts',
      'sampled_minutes',
      'service_names',
    ]);
    const lines: string[] = [];
    await applyMigration(store.client, plan, {
      ttlDays: 0,
      backfill: true,
      onProgress: (l) => lines.push(l),
    });
    expect(lines).toHaveLength(10);
    // failures and calls_1m were never emptied: nothing of otel_traces is older than their first row.
    expect(lines[0]).toMatch(/^\[backfill 1\/10\] failures: 0 otel_traces row\(s\) before /);
    expect(lines[6]).toMatch(/^\[backfill 7\/10\] failure_codes_1m: 8 failures row\(s\) before /);

    const codes = await rows<{ code: string; n: string }>(
      'SELECT code, toString(sum(failures)) AS n FROM failure_codes_1m GROUP BY code ORDER BY code',
    );
    expect(codes).toEqual([
      { code: '40001', n: '7' },
      { code: '57P01', n: '3' },
    ]);
    const [attempts] = await rows<{ n: string }>('SELECT toString(count()) AS n FROM retry_attempts');
    expect(attempts!.n).toBe('10');
    // Every failure is a client call of orders to api.stripe.com (the fixture's server.address).
    const deps = await rows<{ dependency: string; calls: string; failures: string }>(
      "SELECT dependency, toString(sum(calls)) AS calls, toString(sum(failures)) AS failures FROM dependency_calls_1m WHERE ServiceName = 'orders' GROUP BY dependency",
    );
    expect(deps).toEqual([{ dependency: 'api.stripe.com', calls: '10', failures: '10' }]);
    const workflows = await rows<{ id: string; failures: string }>(
      "SELECT correlation_id AS id, toString(sum(failure_count)) AS failures FROM workflows_rollup WHERE correlation_id != '' GROUP BY id ORDER BY id",
    );
    expect(workflows).toEqual([
      { id: 'wf-a-0', failures: '3' },
      { id: 'wf-a-1', failures: '2' },
      { id: 'wf-b-0', failures: '2' },
      { id: 'wf-b-1', failures: '1' },
      { id: 'wf-c', failures: '2' },
    ]);
    // Done once: nothing is pending, and running again would add nothing.
    expect((await planMigration(store.client, sqlDir)).backfills).toEqual([]);
  });

  it('runs a backfill cut short again from its recorded cutoff, without counting twice', async () => {
    // A crash after the 'started' record and part of the insert: the rows below the cutoff are
    // there once already. Running again deletes them and fills once.
    const [first] = await rows<{ first: string }>(
      'SELECT toString(min(minute)) AS first FROM failure_codes_1m',
    );
    await store.client.command({
      query: "ALTER TABLE schema_migrations DELETE WHERE kind = 'backfill' AND name = 'failure_codes_1m'",
      clickhouse_settings: { mutations_sync: '2' },
    });
    const cutoff = new Date(T - 30 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    await insertBatch(
      store.client,
      `${JSON.stringify({ version: 510, name: 'failure_codes_1m', kind: 'backfill', checksum: '', state: 'started', detail: cutoff, applied_at: (Date.now() / 1000).toFixed(3), duration_ms: 0, applied_by: 'test' })}\n`,
      { table: 'schema_migrations' },
    );
    expect(first!.first < cutoff).toBe(true);
    const plan = await planMigration(store.client, sqlDir);
    expect(plan.backfills.map((b) => b.name)).toEqual(['failure_codes_1m']);
    await applyMigration(store.client, plan, { ttlDays: 0, backfill: true });
    const codes = await rows<{ code: string; n: string }>(
      'SELECT code, toString(sum(failures)) AS n FROM failure_codes_1m GROUP BY code ORDER BY code',
    );
    expect(codes).toEqual([
      { code: '40001', n: '7' },
      { code: '57P01', n: '3' },
    ]);
  });

  it('refuses a database a newer release migrated, and one that is behind when it may not migrate', async () => {
    const known = knownSchemaVersion(sqlDir);
    // One engine per process (chDB): the same directory, with its last step forgotten.
    await store.client.command({
      query: "ALTER TABLE schema_migrations DELETE WHERE kind = 'schema' AND version = {v:UInt32}",
      query_params: { v: known },
      clickhouse_settings: { mutations_sync: '2' },
    });
    await store.close();
    const previous = listSchemaSteps(sqlDir)
      .map((s) => s.version)
      .filter((v) => v < known)
      .at(-1);
    await expect(openStore({ dataDir: join(dir, 'data'), migrate: false })).rejects.toThrow(
      `the database's schema is version ${previous} with 1 step(s) this Faultline (version ${known}) needs: run \`faultline migrate --apply\``,
    );
    store = await openStore({ dataDir: join(dir, 'data') });
    expect((await planMigration(store.client, sqlDir)).current).toBe(known);
    await insertBatch(
      store.client,
      `${JSON.stringify({ version: known + 100, name: 'from_the_future', kind: 'schema', checksum: 'x', state: 'applied', detail: '', applied_at: (Date.now() / 1000).toFixed(3), duration_ms: 0, applied_by: 'test' })}\n`,
      { table: 'schema_migrations' },
    );
    await store.close();
    await expect(openStore({ dataDir: join(dir, 'data') })).rejects.toThrow(
      `the database's schema is version ${known + 100}, newer than this Faultline knows (${known})`,
    );
    store = await openStore({ dataDir: join(dir, 'data'), applySchema: false });
  });
});
