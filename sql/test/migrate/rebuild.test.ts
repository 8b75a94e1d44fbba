import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { openStore } from '../../src/index.js';
import { listSchemaSteps } from '../../src/migrate/schema-steps.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

/**
 * A counting rule changed in 005 alone: every step that calls it applies again, the views that
 * inline it are created again, and the rollups they fill are rebuilt under the new rule, old rows
 * included. The changed rule is sql/schema copied to a scratch folder with one value of
 * faultline_semconv_source edited (the AWS SDK's source named 'aws' instead of 'sdk').
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const sqlDir = resolveSqlDir();
const SDK_RULE = "= 'aws-api', 'sdk',";

let dir: string;
let changedDir: string;
let store: Store;

async function rows<T = Record<string, unknown>>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}

const call = (service: string, attrs: Record<string, string>, ms: number): TraceRow =>
  makeRow({
    Timestamp: dateTime64(ms),
    ServiceName: service,
    SpanName: service,
    SpanKind: 'Client',
    SpanAttributes: attrs,
  });
const dynamodb = {
  'rpc.system': 'aws-api',
  'rpc.service': 'DynamoDB',
  'rpc.method': 'PutItem',
  'db.system': 'dynamodb',
};
const pg = { 'db.system': 'postgresql', 'db.name': 'shop' };

/** Reopens the store on `schemaDir` (the migrator runs), with its progress lines. */
async function reopen(schemaDir: string | undefined): Promise<string[]> {
  await store.close();
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: unknown) => lines.push(String(line));
  if (schemaDir) process.env.FAULTLINE_SQL_DIR = schemaDir;
  try {
    store = await openStore({ dataDir: join(dir, 'data') });
  } finally {
    console.log = log;
    delete process.env.FAULTLINE_SQL_DIR;
  }
  return lines;
}

const sources = () =>
  rows<{ service: string; calls: string; deps: string }>(
    `SELECT c.ServiceName AS service, c.sources AS calls, d.sources AS deps
     FROM (SELECT ServiceName, arrayStringConcat(arraySort(groupUniqArray(source)), ',') AS sources, sum(calls) AS n FROM calls_1m GROUP BY ServiceName) AS c
     JOIN (SELECT ServiceName, arrayStringConcat(arraySort(groupUniqArray(source)), ',') AS sources FROM dependency_calls_1m GROUP BY ServiceName) AS d USING (ServiceName)
     ORDER BY service`,
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-rebuild-'));
  changedDir = join(dir, 'sql-changed');
  cpSync(join(sqlDir, 'schema'), join(changedDir, 'schema'), { recursive: true });
  const file = join(changedDir, 'schema', '005_functions.sql');
  const text = readFileSync(file, 'utf8');
  expect(text.split(SDK_RULE)).toHaveLength(2);
  writeFileSync(file, text.replace(SDK_RULE, "= 'aws-api', 'aws',"));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows([call('orders', dynamodb, T0), call('ledger', pg, T0)]));
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a changed counting rule', () => {
  it('changes the checksum of every step that calls it, and of those only', () => {
    const before = new Map(listSchemaSteps(sqlDir).map((s) => [s.file, s.checksum]));
    const changed = listSchemaSteps(changedDir)
      .filter((s) => before.get(s.file) !== s.checksum)
      .map((s) => s.name);
    // faultline_source calls faultline_semconv_source; 010, 020, 040, 070, 075, 500 and 520 call it.
    expect(changed).toEqual([
      'functions',
      'failures',
      'calls_1m',
      'dependency_calls_1m',
      'otel_logs',
      'failures_log_first',
      'dashboard_workflows',
      'retry_attempts',
    ]);
  });

  it('creates the views that inline it again and rebuilds what they filled, old rows included', async () => {
    expect(await sources()).toEqual([
      { service: 'ledger', calls: 'db', deps: 'db' },
      { service: 'orders', calls: 'sdk', deps: 'sdk' },
    ]);
    const lines = await reopen(changedDir);
    // failures_from_logs_mv (070) among them: it stores a record's source by faultline_source;
    // and failures_log_first_mv (075), a span's.
    expect(lines.filter((l) => l.includes('created again')).length).toBe(10);
    // sampled_minutes (535) among them: it is fed from workflows_rollup.
    expect(lines.filter((l) => /rebuilt from/.test(l)).length).toBe(8);
    await insertBatch(store.client, serializeRows([call('orders', dynamodb, T0 + 60_000)]));
    expect(await sources()).toEqual([
      { service: 'ledger', calls: 'db', deps: 'db' },
      { service: 'orders', calls: 'aws', deps: 'aws' },
    ]);
    const [n] = await rows<{ n: number }>(
      "SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = 'orders'",
    );
    expect(Number(n!.n)).toBe(2);
  });

  it('applies nothing at the next start, and counts nothing twice', async () => {
    expect(await reopen(changedDir)).toEqual([]);
    const [n] = await rows<{ n: number }>(
      "SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = 'orders'",
    );
    expect(Number(n!.n)).toBe(2);
  });
});
