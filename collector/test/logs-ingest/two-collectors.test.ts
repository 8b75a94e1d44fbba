import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { failureCounts } from './helpers/logged-failures.js';
import { type Scenario, scenario } from './helpers/sdk-log-shapes.js';

// Two collector instances on one store, as behind a load balancer over one ClickHouse: a record
// goes to one, its span to the other, so neither's memory (span-log-join.ts) meets the pair. The
// issue's eight cases (helpers/sdk-log-shapes.ts) in both orders: each failure counted once, with
// the class and code written by hand; the join is the store's (sql/schema/070, 075).
const JSON_CT = { 'content-type': 'application/json' };
let ts: TestStore;
let a: Collector;
let b: Collector;
const T0 = Date.now() - 60_000;

beforeAll(async () => {
  ts = await openTestStore('two-collectors');
  const start = (name: string) =>
    startCollector({
      port: 0,
      store: ts.store,
      writerOptions: { spoolDir: join(ts.spoolDir, name), maxBatchDelayMs: 5 },
    });
  a = await start('a');
  b = await start('b');
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await ts?.cleanup();
});

/**
 * The hand-written classes, but one: Python's LoggingHandler names only the exception's class
 * (UniqueViolation), and what system raised it is on the span, at the other instance. One
 * collector classifies such a record with its span's attributes (23505, validation); across
 * instances the record is classified alone and its own reading replaces the span's guess. Still
 * one failure, under the record's class.
 */
const SPAN_ELSEWHERE: Record<string, { class: string; code: string }> = {
  'signup-py': { class: 'permanent', code: 'UniqueViolation' },
};

const expectedRows = (s: Scenario, suffix: string) =>
  [...s.expected]
    .flatMap(([service, failures]) =>
      failures.map((f) => ({ service, ...f, ...SPAN_ELSEWHERE[service.replace(`-${suffix}`, '')] })),
    )
    .sort((x, y) => `${x.service} ${x.class} ${x.code}`.localeCompare(`${y.service} ${y.class} ${y.code}`));

async function post(collector: Collector, path: string, body: object): Promise<void> {
  const res = await postTraces(collector.url, JSON.stringify(body), JSON_CT, { path });
  expect(res.status, res.body.toString()).toBe(200);
  await collector.settle();
}

/** Rows of failures per span of the scenario's services: 1 for a span kept, 3 for one replaced. */
async function rowsPerSpan(s: Scenario): Promise<number[]> {
  const { rows } = await ts.store.runReadOnly<{ n: number }>(
    `SELECT count() AS n FROM failures WHERE ServiceName IN {s:Array(String)} AND TraceId != ''
     GROUP BY TraceId, SpanId ORDER BY n`,
    { s: s.services },
  );
  return rows.map((r) => Number(r.n));
}

describe('a record and its span at two collectors on one store', () => {
  it('record first at one, span after at the other: each span takes its record’s class, once', async () => {
    const s = scenario('a-then-b', T0);
    await post(a, '/v1/logs', s.logs);
    await post(b, '/v1/traces', s.traces);
    expect(await failureCounts(ts.store, s.services)).toEqual(expectedRows(s, 'a-then-b'));
    // The guesses the record explains were replaced (three rows each), the rest kept as they came.
    const perSpan = await rowsPerSpan(s);
    expect(perSpan.filter((n) => n !== 1 && n !== 3)).toEqual([]);
    expect(perSpan.filter((n) => n === 3).length).toBeGreaterThan(0);
  });

  it('span first at one, record after at the other: the same counts', async () => {
    const s = scenario('b-then-a', T0 + 1000);
    await post(b, '/v1/traces', s.traces);
    await post(a, '/v1/logs', s.logs);
    expect(await failureCounts(ts.store, s.services)).toEqual(expectedRows(s, 'b-then-a'));
  });
});
