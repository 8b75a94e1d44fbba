import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceOf } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { openStore } from '../../src/index.js';
import { BACKFILL_STEPS } from '../../src/migrate/backfill-steps.js';
import { planMigration } from '../../src/migrate/migrate.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';
import { SPAN_SHAPES } from './span-shapes.js';

/**
 * The upgrade that made the counting rules functions (005), on a database the release before it
 * migrated and filled: the migrator creates the changed views again and rebuilds every rollup they
 * fill, and the rollups come out identical except for the corrected span source. The release
 * before is sql/schema as committed at BEFORE, read from git (the SQL's one home, at that commit).
 */
const BEFORE = 'fcfa182a4fde7825a0c37ead1ee607675e7344df';
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const sqlDir = resolveSqlDir();

let dir: string;
let store: Store;
const progress: string[] = [];

async function rows<T = Record<string, unknown>>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}

/** sql/schema at BEFORE, as a folder FAULTLINE_SQL_DIR can point at. */
function schemaAt(commit: string, into: string): string {
  const root = execFileSync('git', ['-C', sqlDir, 'rev-parse', '--show-toplevel'], {
    encoding: 'utf8',
  }).trim();
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  const files = git('ls-tree', '--name-only', `${commit}:sql/schema`).split('\n').filter(Boolean);
  if (files.length === 0)
    throw new Error(`no sql/schema at ${commit}: this test needs the repository's history`);
  mkdirSync(join(into, 'schema'), { recursive: true });
  for (const f of files) writeFileSync(join(into, 'schema', f), git('show', `${commit}:sql/schema/${f}`));
  return into;
}

/**
 * Each shape as a workflow of its own: the entry's server span, the call, a stock retry of it
 * (http.request.resend_count), and a failed attempt nobody classified (an Error status, as the
 * contrib exporter writes it).
 */
function shapeSpans(): TraceRow[] {
  return SPAN_SHAPES.flatMap((shape, i) => {
    const at = (s: number) => ({ Timestamp: dateTime64(T0 + i * 60_000 + s * 1000) });
    const base = { ServiceName: shape.id, SpanName: shape.id, SpanKind: shape.kind, TraceId: `trace-${i}` };
    const attrs = { ...shape.attrs, 'faultline.correlation_id': `wf-${shape.id}` };
    return [
      makeRow({ ...at(0), ...base, SpanKind: 'Server', SpanName: 'GET /', SpanId: `root-${i}` }),
      makeRow({ ...at(1), ...base, ParentSpanId: `root-${i}`, SpanAttributes: attrs }),
      makeRow({
        ...at(2),
        ...base,
        ParentSpanId: `root-${i}`,
        SpanAttributes: { ...attrs, 'http.request.resend_count': '1' },
      }),
      makeRow({ ...at(3), ...base, ParentSpanId: `root-${i}`, SpanAttributes: attrs, StatusCode: 'Error' }),
    ];
  });
}

/**
 * Every rollup, read whole and in order (aggregates merged): with its source where it has one, and
 * without it (merged across sources), for the comparison that must find nothing changed.
 */
const ROLLUPS: Record<string, (source: boolean) => string> = {
  calls_1m: (source) => `SELECT minute, ServiceName, SpanKind, class, code${source ? ', source' : ''},
      toFloat64(sum(calls)) AS calls, toFloat64(sum(failures)) AS failures,
      toFloat64(sum(retryable_failures)) AS retryable_failures, toFloat64(sum(retries)) AS retries,
      toFloat64(sum(misrouted)) AS misrouted, toFloat64(sum(duration_ns_sum)) AS duration_ns_sum
    FROM calls_1m GROUP BY ALL ORDER BY ALL`,
  dependency_calls_1m: (
    source,
  ) => `SELECT minute, ServiceName, SpanKind, dependency${source ? ', source' : ''},
      toFloat64(sum(calls)) AS calls, toFloat64(sum(failures)) AS failures, toFloat64(sum(retries)) AS retries,
      toFloat64(sum(misrouted)) AS misrouted, toFloat64(sum(duration_ns_sum)) AS duration_ns_sum,
      toString(quantilesMerge(0.5, 0.95)(latency_ns)) AS latency
    FROM dependency_calls_1m GROUP BY ALL ORDER BY ALL`,
  failures: (source) => `SELECT *${source ? '' : ' EXCEPT (source)'} FROM failures ORDER BY ALL`,
  // example_message is anyLast: which message a merge keeps is not part of the count.
  failure_codes_1m: (source) => `SELECT minute, ServiceName, SpanKind, class, code${source ? ', source' : ''},
      toFloat64(sum(failures)) AS failures, toFloat64(sum(retryable_failures)) AS retryable_failures,
      max(last_seen) AS last_seen
    FROM failure_codes_1m GROUP BY ALL ORDER BY ALL`,
  retry_attempts: (source) => `SELECT *${source ? '' : ' EXCEPT (source)'} FROM retry_attempts ORDER BY ALL`,
  workflows_rollup: () => `SELECT * REPLACE (arraySort(service_set) AS service_set)
    FROM workflows_rollup FINAL ORDER BY workflow_key`,
  service_names: () => `SELECT service_key, any(service) AS service, min(first_seen) AS first_seen
    FROM service_names GROUP BY service_key ORDER BY ALL`,
};

type Row = Record<string, unknown>;
type Snapshot = Record<string, { rows: Row[]; withSource: Row[] }>;

async function snapshot(): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const [table, query] of Object.entries(ROLLUPS))
    out[table] = { rows: await rows(query(false)), withSource: await rows(query(true)) };
  return out;
}

let before: Snapshot;
let after: Snapshot;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-rollups-upgrade-'));
  process.env.FAULTLINE_SQL_DIR = schemaAt(BEFORE, join(dir, 'sql-before'));
  try {
    store = await openStore({ dataDir: join(dir, 'data') });
  } finally {
    delete process.env.FAULTLINE_SQL_DIR;
  }
  // The release before recorded its backfills without a checksum, and knew five of them.
  await store.client.command({
    query: "ALTER TABLE schema_migrations DELETE WHERE kind = 'backfill'",
    clickhouse_settings: { mutations_sync: '2' },
  });
  const legacy = [
    [40, 'dependency_calls_1m'],
    [500, 'workflows_rollup'],
    [510, 'failure_codes_1m'],
    [520, 'retry_attempts'],
    [540, 'service_names'],
  ].map(([version, name]) =>
    JSON.stringify({
      version,
      name,
      kind: 'backfill',
      checksum: '',
      state: 'applied',
      detail: '',
      applied_at: (Date.now() / 1000).toFixed(3),
      duration_ms: 0,
      applied_by: 'the release before',
    }),
  );
  await insertBatch(store.client, `${legacy.join('\n')}\n`, { table: 'schema_migrations' });

  // The data set: the dashboard benchmark's synthetic spans (sql/bench/seed.sql), and the span
  // shapes of every SDK the source rule reads.
  const seedSql = readFileSync(join(sqlDir, 'bench', 'seed.sql'), 'utf8');
  await store.client.command({
    query: seedSql,
    query_params: { spans: 20_000, window_s: 7_200, end: Math.floor(T0 / 1000) },
  });
  await insertBatch(store.client, serializeRows(shapeSpans()));
  before = await snapshot();
  await store.close();

  const log = console.log;
  console.log = (line: unknown) => progress.push(String(line));
  try {
    store = await openStore({ dataDir: join(dir, 'data') });
  } finally {
    console.log = log;
  }
  after = await snapshot();
  // The sampling weights came after: a span of this data carries no sampling mark, so every failure
  // row stands for 1 and every workflow's requests are its roots. Checked here, then left out of
  // the comparison with the release before, which had no such column.
  for (const r of after.failures!.rows) expect(r.weight).toBe(1);
  // So did the agent columns (issue 32): no span of this data is an agent's, so none names one.
  for (const r of after.failures!.rows) expect([r.tool, r.agent, r.model]).toEqual(['', '', '']);
  for (const r of after.workflows_rollup!.rows) expect(r.root_weight).toBe(Number(r.root_count));
  for (const snap of Object.values(after))
    for (const rs of [snap.rows, snap.withSource])
      for (const r of rs) {
        delete r.weight;
        delete r.root_weight;
        delete r.tool;
        delete r.agent;
        delete r.model;
      }
}, 240_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('upgrading to the counting rules as functions', () => {
  it('creates the changed views again and rebuilds every rollup they fill', () => {
    const recreated = progress.flatMap((l) => /view (\w+) created again/.exec(l)?.[1] ?? []).sort();
    expect(recreated).toEqual([
      'calls_1m_mv_v2',
      'calls_1m_prior_attempts_mv',
      'dependency_calls_1m_mv',
      'failure_codes_1m_mv',
      'failures_mv_v3',
      'failures_prior_attempts_mv_v2',
      'retry_attempts_mv_v2',
      'retry_attempts_prior_mv',
      'workflows_rollup_mv_v2',
    ]);
    const rebuilt = progress.flatMap((l) => /\[backfill \d+\/\d+\] (\w+): rebuilt from/.exec(l)?.[1] ?? []);
    // Every one the release before had, in order; failure_codes_1m and service_names because they
    // are fed from a rebuilt table (failures, workflows_rollup), whose inserts fired their views.
    // service_endpoints and tool_calls are new with this release: filled, not rebuilt.
    const added = ['service_endpoints', 'tool_calls'];
    expect(rebuilt).toEqual(BACKFILL_STEPS.map((s) => s.name).filter((n) => !added.includes(n)));
    expect(progress.some((l) => /\] service_endpoints: /.test(l))).toBe(true);
  });

  it('leaves nothing to do at the next start', async () => {
    const plan = await planMigration(store.client, sqlDir);
    expect(plan.schema).toEqual([]);
    expect(plan.backfills).toEqual([]);
  });

  it('keeps every rollup row identical but for its source', () => {
    for (const table of Object.keys(ROLLUPS)) {
      expect(before[table]!.rows.length, table).toBeGreaterThan(0);
      expect(after[table]!.rows, table).toEqual(before[table]!.rows);
    }
  });

  it('changes the source of exactly the spans the TypeScript rule files elsewhere', () => {
    /** `service kind: sources before -> sources after`, where the two differ. */
    const changes = (table: string) => {
      const sources = (rs: Row[]) => {
        const m = new Map<string, Set<string>>();
        for (const r of rs) {
          const k = `${r.ServiceName} ${r.SpanKind}`;
          m.set(k, (m.get(k) ?? new Set()).add(String(r.source)));
        }
        return m;
      };
      const [old, now] = [sources(before[table]!.withSource), sources(after[table]!.withSource)];
      const show = (set: Set<string> | undefined) => [...(set ?? [])].sort().join('|');
      return [...now.keys()]
        .filter((k) => show(old.get(k)) !== show(now.get(k)))
        .map((k) => `${k}: ${show(old.get(k))} -> ${show(now.get(k))}`)
        .sort();
    };
    // The benchmark's spans carry the preload's faultline.source: unchanged. The calls of stock
    // SDKs: a DynamoDB call is the AWS SDK's, rpc.system.name names an RPC, an HTTP span is known
    // by its method (a gRPC call's retry carried http.request.resend_count, so the earlier rule
    // filed it under http, apart from its first attempt).
    const calls = changes('calls_1m');
    expect(calls).toEqual([
      'dotnet-aws-dynamodb Client: db -> sdk',
      'go-otelaws-dynamodb-rpc-system-name Client: db -> sdk',
      'go-otelgrpc-rpc-system-name Client: |http -> rpc',
      'http-without-method Client: http -> ',
      'java-aws-sdk2-dynamodb Client: db -> sdk',
      'js-aws-sdk-dynamodb Client: db -> sdk',
      'preload-dynamodb-success Client: db -> sdk',
      'python-botocore-dynamodb Client: db -> sdk',
    ]);
    expect(changes('dependency_calls_1m')).toEqual(calls);
    // A stock retry that succeeded carries no envelope: it is now filed under its call's source.
    const shapes = new Map(SPAN_SHAPES.map((s) => [s.id, s]));
    const retries = changes('retry_attempts');
    for (const line of retries) {
      const [key, move] = line.split(': ') as [string, string];
      const id = key.split(' ')[0]!;
      expect(move, id).toBe(` -> ${sourceOf(shapes.get(id)!.attrs)}`);
    }
    expect(retries.length).toBeGreaterThan(20);
    for (const table of ['failures', 'failure_codes_1m']) expect(changes(table), table).toEqual([]);
  });
});
