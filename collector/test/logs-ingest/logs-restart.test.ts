import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@faultline/sql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollector } from '../../src/index.js';
import { type CollectorProcess, startCollectorProcess } from '../durability/helpers/collector-process.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { failureCounts } from './helpers/logged-failures.js';
import { type Scenario, scenario } from './helpers/sdk-log-shapes.js';

// Acknowledged records survive an outage and a crash: a collector whose ClickHouse takes no insert
// (the durability tests' held child) acknowledges records and spans, is kill -9'd, and a collector
// on the same data directory stores each once and counts each failure once. A span acknowledged
// before the crash is explained by its record arriving after it, with no memory of the span left.
const HELD = join(import.meta.dirname, '..', 'durability', 'held-collector-child.ts');
const JSON_CT = { 'content-type': 'application/json' };
let dir: string;
let held: CollectorProcess | undefined;
let store: Store | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-logs-restart-'));
});

afterAll(async () => {
  held?.child.kill('SIGKILL');
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const expectedRows = (s: Scenario) =>
  [...s.expected]
    .flatMap(([service, failures]) => failures.map((f) => ({ service, ...f })))
    .sort((a, b) => `${a.service} ${a.class} ${a.code}`.localeCompare(`${b.service} ${b.class} ${b.code}`));

async function post(url: string, path: string, body: object): Promise<void> {
  const res = await postTraces(url, JSON.stringify(body), JSON_CT, { path });
  expect(res.status, res.body.toString()).toBe(200);
}

async function storedRecords(s: Scenario): Promise<number> {
  const { rows } = await store!.runReadOnly<{ n: number }>(
    'SELECT count() AS n FROM otel_logs WHERE ServiceName IN {s:Array(String)}',
    { s: s.services },
  );
  return Number(rows[0]!.n);
}

it('keeps every acknowledged record through an outage and kill -9, each failure counted once', {
  timeout: 120_000,
}, async () => {
  const dataDir = join(dir, 'data');
  const now = Date.now() - 30_000;
  const both = scenario('restart', now);
  const later = scenario('after-restart', now + 1000);
  held = await startCollectorProcess({ script: HELD, env: { FAULTLINE_DATA_DIR: dataDir } });
  // Acknowledged only once fsync'd to the logs' write-ahead log: ClickHouse never answered.
  await post(held.url, '/v1/logs', both.logs);
  await post(held.url, '/v1/traces', both.traces);
  await post(held.url, '/v1/traces', later.traces);
  const health = await (await fetch(`${held.url}/healthz`)).json();
  expect(health.logs).toMatchObject({ accepted: 8, inserted: 0, pendingInsert: 8, failures: 7 });
  expect(readdirSync(join(dataDir, 'wal', 'otel_logs')).some((f) => /\.(open|jsonl)$/.test(f))).toBe(true);

  held.child.kill('SIGKILL');
  await held.exited;
  held = undefined;

  // A new collector on the same data directory takes over the stale locks and replays both logs.
  store = await openStore({ dataDir });
  let collector = await startCollector({ store, port: 0 });
  await collector.settle();
  expect(await storedRecords(both)).toBe(8);
  expect(await failureCounts(store, both.services)).toEqual(expectedRows(both));

  // The records of spans stored before the crash: nothing remembers those spans now, so each record
  // is classified on its own attributes and replaces its span's guess (070). Python's LoggingHandler
  // names the class alone (UniqueViolation), which names no system without the span's db.system: that
  // one reads as its class, not 23505 (still counted once, in place of the span's `permanent Error`).
  await post(collector.url, '/v1/logs', later.logs);
  await collector.settle();
  const afterRestart = expectedRows(later).map((r) =>
    r.service === 'signup-py-after-restart' ? { ...r, class: 'permanent', code: 'UniqueViolation' } : r,
  );
  expect(await failureCounts(store, later.services)).toEqual(afterRestart);
  await collector.close();

  // Once inserted, a record is gone from the log: another restart adds nothing.
  collector = await startCollector({ store, port: 0 });
  await collector.settle();
  expect(await storedRecords(both)).toBe(8);
  expect(await storedRecords(later)).toBe(8);
  expect(await failureCounts(store, both.services)).toEqual(expectedRows(both));
  expect(await failureCounts(store, later.services)).toEqual(afterRestart);
  await collector.close();
});
