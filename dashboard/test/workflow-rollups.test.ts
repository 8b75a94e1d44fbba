import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { burnWindowParams, readWorkflowsSampled } from '@faultline/collector/budget';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Workflows, Retries and Request pages read rollups fed by materialized views (workflows_rollup,
// retry_attempts) instead of raw spans. These spans arrive in two OTLP-like batches, the way
// services export separately, so one workflow lands as partial rows that the reads must merge.
let store: Store;
let dataDir: string;
const T0 = Date.UTC(2026, 0, 31, 9, 0, 0) / 1000;
const from = T0 - 60;
const to = T0 + 600;

const TRACE_A = 'a'.repeat(32);
const ts = (offsetMs: number) => {
  const ns = BigInt(T0 * 1000 + offsetMs) * 1_000_000n;
  const d = new Date(Number(ns / 1_000_000n));
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
};

interface SpanSpec {
  at: number;
  service: string;
  name: string;
  kind: 'Server' | 'Client';
  trace: string;
  id: string;
  parent?: string;
  correlationId: string;
  durationMs: number;
  error?: boolean;
  envelope?: { class: string; source: string; code: string };
  attempt?: number;
  /** The preload's faultline.entry: a span of the service that received the request from outside. */
  entry?: boolean;
}

function row(s: SpanSpec) {
  const attrs: Record<string, string> = { 'faultline.correlation_id': s.correlationId };
  if (s.kind === 'Client') attrs['faultline.source'] = s.envelope?.source ?? 'http';
  if (s.envelope) {
    attrs['faultline.class'] = s.envelope.class;
    attrs['faultline.code'] = s.envelope.code;
  }
  if (s.attempt) attrs['faultline.attempt'] = String(s.attempt);
  if (s.entry) attrs['faultline.entry'] = 'true';
  return {
    Timestamp: ts(s.at),
    TraceId: s.trace,
    SpanId: s.id.padStart(16, '0'),
    ParentSpanId: s.parent ? s.parent.padStart(16, '0') : '',
    SpanName: s.name,
    SpanKind: s.kind,
    ServiceName: s.service,
    SpanAttributes: attrs,
    Duration: s.durationMs * 1_000_000,
    StatusCode: s.error || s.envelope ? 'Error' : 'Unset',
  };
}

const wfA = 'h11-wf-a'; // root span failed; a transient failure retried once, successfully; checkout is the entry
const wfB = 'h11-wf-b'; // no root span; first call fails, last succeeds
const wfC = 'h11-wf-c'; // no root span; last call fails
const batch1: SpanSpec[] = [
  {
    at: 1000,
    service: 'checkout',
    name: 'GET /stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a2',
    entry: true,
    parent: 'a1',
    correlationId: wfA,
    durationMs: 100,
    envelope: { class: 'transient', source: 'http', code: '503' },
  },
  {
    at: 1500,
    service: 'inventory',
    name: 'SELECT stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a4',
    parent: 'a2',
    correlationId: wfA,
    durationMs: 20,
    envelope: { class: 'transient', source: 'db', code: '40P01' },
  },
  {
    at: 5000,
    service: 'payments',
    name: 'POST /charge',
    kind: 'Client',
    trace: 'b'.repeat(32),
    id: 'b1',
    correlationId: wfB,
    durationMs: 10,
    envelope: { class: 'validation', source: 'sdk', code: 'ValidationException' },
  },
  {
    at: 6000,
    service: 'payments',
    name: 'POST /refund',
    kind: 'Client',
    trace: 'b'.repeat(32),
    id: 'b2',
    correlationId: wfB,
    durationMs: 10,
  },
];
// One workflow whose two batches straddle 00:00 UTC, so its partial rows land in two day partitions.
const wfMidnight = 'h11-wf-midnight';
const MIDNIGHT = -9 * 3600; // seconds from T0 (09:00) back to 00:00 UTC of the same day
const midnightSpan = (at: number, id: string): SpanSpec => ({
  at: MIDNIGHT * 1000 + at,
  service: 'checkout',
  name: 'GET /stock',
  kind: 'Client',
  trace: '9'.repeat(32),
  id,
  correlationId: wfMidnight,
  durationMs: 10,
});
batch1.push(midnightSpan(-1000, 'm1'));
const batch2: SpanSpec[] = [
  midnightSpan(1000, 'm2'),
  {
    at: 0,
    service: 'checkout',
    name: 'POST /checkout',
    kind: 'Server',
    trace: TRACE_A,
    id: 'a1',
    entry: true,
    correlationId: wfA,
    durationMs: 3000,
    error: true,
  },
  {
    at: 2000,
    service: 'checkout',
    name: 'GET /stock',
    kind: 'Client',
    trace: TRACE_A,
    id: 'a3',
    entry: true,
    parent: 'a1',
    correlationId: wfA,
    durationMs: 50,
    attempt: 2,
  },
  {
    at: 7000,
    service: 'payments',
    name: 'GET /quote',
    kind: 'Client',
    trace: 'c'.repeat(32),
    id: 'c1',
    correlationId: wfC,
    durationMs: 10,
  },
  {
    at: 8000,
    service: 'payments',
    name: 'POST /charge',
    kind: 'Client',
    trace: 'c'.repeat(32),
    id: 'c2',
    correlationId: wfC,
    durationMs: 10,
    envelope: { class: 'permanent', source: 'http', code: '404' },
  },
];

// Retry chains 20 minutes later, outside the workflow range above: two chains in one trace and
// service (told apart by span name), a failure nobody retried, and a retry whose first attempt
// succeeded (successes are not in retry_attempts, so it follows nothing).
const T_RETRY = 1_200_000;
const retryFrom = T0 + 1140;
const retryTo = T0 + 1800;
const TRACE_D = 'd'.repeat(32);
const retrySpan = (s: Omit<SpanSpec, 'service' | 'kind' | 'correlationId'> & { correlationId?: string }) =>
  ({ service: 'checkout', kind: 'Client', correlationId: 'h11-wf-d', ...s, at: T_RETRY + s.at }) as SpanSpec;
const transient = { class: 'transient', source: 'http', code: '503' };
const rateLimit = { class: 'rate_limit', source: 'http', code: '429' };
const batch3: SpanSpec[] = [
  retrySpan({ at: 0, name: 'GET /stock', trace: TRACE_D, id: 'd1', durationMs: 100, envelope: transient }),
  retrySpan({ at: 50, name: 'POST /charge', trace: TRACE_D, id: 'd2', durationMs: 10, envelope: rateLimit }),
  retrySpan({ at: 300, name: 'GET /stock', trace: TRACE_D, id: 'd3', durationMs: 20, attempt: 2 }),
  retrySpan({
    at: 2060,
    name: 'POST /charge',
    trace: TRACE_D,
    id: 'd4',
    durationMs: 10,
    attempt: 2,
    envelope: rateLimit,
  }),
  retrySpan({ at: 3000, name: 'POST /charge', trace: TRACE_D, id: 'd5', durationMs: 30, attempt: 3 }),
  retrySpan({
    at: 500,
    name: 'GET /stock',
    trace: 'e'.repeat(32),
    id: 'e1',
    correlationId: 'h11-wf-e',
    durationMs: 10,
    envelope: transient,
  }),
  retrySpan({
    at: 1000,
    name: 'GET /stock',
    trace: 'f'.repeat(32),
    id: 'f1',
    correlationId: 'h11-wf-f',
    durationMs: 5,
    attempt: 2,
  }),
];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'faultline-h11-rollups-'));
  const { openStore } = await import('@faultline/sql');
  store = await openStore({ dataDir });
  for (const batch of [batch1, batch2, batch3]) {
    await store.client.insert({ table: 'otel_traces', values: batch.map(row), format: 'JSONEachRow' });
  }
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const run = async (name: string, params: Row) =>
  (await store.runNamed<Row>(`dashboard/${name}`, params)).rows;
/** The queries that sum workflow weights take `sampled`, asked as the pages ask it. */
const WEIGHTED = new Set(['workflows_first_failure', 'budget_requests']);
const named = async (name: string, params: Row) => {
  if (!WEIGHTED.has(name)) return run(name, params);
  const start = Math.min(Number(params.from), Number(params.period_from ?? params.from));
  return run(name, { ...params, sampled: await readWorkflowsSampled(run, start) });
};

describe('workflows_rollup via dashboard_workflows', () => {
  it('merges a workflow sent in two batches into one row with its steps, retries, outcome and first failure', async () => {
    const rows = await named('workflows_recent', { from, to, service: '', failed_only: false, limit: 10 });
    const byId = new Map(rows.map((r) => [r.correlation_id, r]));
    expect([...byId.keys()].sort()).toEqual([wfA, wfB, wfC]);
    // Steps are the entry service's logical calls: checkout's GET /stock once (a3 is its second
    // attempt, not a new step; inventory's SELECT is inventory's call). It failed, then its retry
    // succeeded: no step failed for good, yet the root request failed.
    expect(byId.get(wfA)).toMatchObject({
      started: T0,
      duration_ns: 3000000000,
      services: ['checkout', 'inventory'],
      steps: 1,
      failed_steps: 0,
      retries: 1,
      failed: true,
      first_failure_class: 'transient',
      first_failure_source: 'http',
      first_failure_code: '503',
    });
    expect(byId.get(wfB)).toMatchObject({
      steps: 2,
      failed_steps: 1,
      failed: false,
      first_failure_class: 'validation',
    });
    expect(byId.get(wfC)).toMatchObject({
      steps: 2,
      failed_steps: 1,
      failed: true,
      first_failure_code: '404',
    });

    const [summary] = await named('workflows_summary', { from, to, service: '' });
    expect(summary).toMatchObject({
      workflows: 3,
      failed_workflows: 2,
      // 1 (wfA) + 2 (wfB) + 2 (wfC); failed for good: wfB's first call, wfC's last.
      total_steps: 5,
      total_failed_steps: 2,
    });
    const onlyInventory = await named('workflows_recent', {
      from,
      to,
      service: 'inventory',
      failed_only: false,
      limit: 10,
    });
    expect(onlyInventory.map((r) => r.correlation_id)).toEqual([wfA]);
    const [onlyPayments] = await named('workflows_summary', { from, to, service: 'payments' });
    expect(onlyPayments).toMatchObject({ workflows: 2, failed_workflows: 1, total_steps: 4 });
    expect(await named('workflows_summary', { from, to, service: 'no-such-service' })).toMatchObject([
      { workflows: 0 },
    ]);
    // A workflow that started before the range is not counted in it.
    const later = await named('workflows_summary', { from: T0 + 4, to, service: '' });
    expect(later[0]).toMatchObject({ workflows: 2 });
    // Nor listed, even though one of its partial rows (batch 1, from +1 s) starts inside the range:
    // the range applies to the merged workflow, only the key filter may run before the merge.
    const afterStart = await named('workflows_recent', {
      from: T0 + 1,
      to,
      service: '',
      failed_only: false,
      limit: 10,
    });
    expect(afterStart.map((r) => r.correlation_id).sort()).toEqual([wfB, wfC]);
    // A limit the newest partial rows can fill takes the short path (workflows_recent): the same
    // workflows, merged whole, and still none that started before the range.
    const all = await named('workflows_recent', { from, to, service: '', failed_only: false, limit: 10 });
    for (const limit of [1, 2]) {
      const newest = await named('workflows_recent', { from, to, service: '', failed_only: false, limit });
      expect(newest).toEqual(all.slice(0, limit));
    }
    const newestAfterStart = await named('workflows_recent', {
      from: T0 + 1,
      to,
      service: '',
      failed_only: false,
      limit: 1,
    });
    expect(newestAfterStart).toEqual(afterStart.slice(0, 1));
  });
  it('merges partial rows from two day partitions: a workflow counts once, on the day it started', async () => {
    const aroundMidnight = { from: T0 + MIDNIGHT - 60, to: T0 + MIDNIGHT + 60, service: '' };
    const [both] = await named('workflows_summary', aroundMidnight);
    expect(both).toMatchObject({ workflows: 1, total_steps: 2 });
    const [secondDay] = await named('workflows_summary', { ...aroundMidnight, from: T0 + MIDNIGHT });
    expect(secondDay).toMatchObject({ workflows: 0 });
  });
});

// The workflow counters as workflows_rollup_mv_v2 writes them, each in its own column, merged with
// GROUP BY: what dashboard_workflows answered before it read the packed columns (530).
const UNPACKED = `
SELECT
  workflow_key,
  toUInt64(if(sum(entry_marked) > 0, sum(entry_step_count), sum(step_count))) AS steps,
  toUInt64(multiIf(
    sum(entry_marked) > 0, greatest(toInt64(sum(entry_failed_attempts)) - toInt64(sum(entry_retries)), 0),
    sum(failed_attempt_count) > 0, greatest(toInt64(sum(failed_attempt_count)) - toInt64(sum(retry_count)), 0),
    toInt64(sum(failed_step_count)))) AS failed_steps,
  sum(retry_count) AS retries,
  sum(root_count) AS roots,
  toBool(if(sum(root_count) > 0, sum(root_error_count) > 0, max(last_call) % 2 = 1)) AS failed
FROM workflows_rollup
GROUP BY workflow_key
ORDER BY workflow_key`;

describe('the packed workflow counters (530) and the failed-workflow shortcut', () => {
  const query = async (sql: string, params: Row = {}) =>
    (await store.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<Row>();
  const wide = { from: T0 + MIDNIGHT - 3600, to: T0 + 2 * 86_400 };

  it('answer as the counters in their own columns do, for workflows merged from several rows', async () => {
    const partial = await query(
      'SELECT workflow_key FROM workflows_rollup GROUP BY workflow_key HAVING count() > 1',
    );
    expect(partial.length).toBeGreaterThan(0);
    const packed = await query(
      `SELECT workflow_key, steps, failed_steps, retries, roots, failed
       FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = '')
       ORDER BY workflow_key`,
      wide,
    );
    expect(packed.length).toBeGreaterThanOrEqual(6);
    expect(packed).toEqual(await query(UNPACKED));
  });

  it('finds every failed workflow among the rows it picks without the merge', async () => {
    const all = await named('workflows_recent', { ...wide, service: '', failed_only: false, limit: 100 });
    const failedOnly = await named('workflows_recent', {
      ...wide,
      service: '',
      failed_only: true,
      limit: 100,
    });
    expect(failedOnly).toEqual(all.filter((r) => r.failed));
    expect(failedOnly.length).toBeGreaterThan(0);
    const byCause = new Map<string, number>();
    for (const r of failedOnly) {
      const cls = r.first_failure_class === '' ? 'none recorded' : r.first_failure_class;
      const k = [cls, r.first_failure_service, r.first_failure_source, r.first_failure_code].join('/');
      byCause.set(k, (byCause.get(k) ?? 0) + 1);
    }
    const first = await named('workflows_first_failure', { ...wide, service: '' });
    expect(
      new Map(
        first.map((r) => [
          [r.first_class, r.first_service, r.first_source, r.first_code].join('/'),
          Number(r.failed_workflows),
        ]),
      ),
    ).toEqual(byCause);
    // budget_requests counts each root request once, failed ones under their first failure's class.
    const requests = await named('budget_requests', {
      ...wide,
      ...burnWindowParams(),
      service: '',
      period_from: wide.from,
    });
    const expected = new Map<string, number>();
    for (const r of all) {
      const [root] = await query(
        `SELECT roots, entry_service FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = '')
         WHERE correlation_id = {id:String}`,
        { ...wide, id: r.correlation_id },
      );
      if (!root || Number(root.roots) === 0) continue;
      const cls = r.failed ? (r.first_failure_class === '' ? 'unclassified' : r.first_failure_class) : '';
      const k = `${root.entry_service}/${cls}`;
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    expect(new Map(requests.map((r) => [`${r.service}/${r.class}`, Number(r.range_requests)]))).toEqual(
      expected,
    );
    expect(expected.size).toBeGreaterThan(0);
  });
});

describe('request_spans', () => {
  it('finds every span of a request by correlation id and by trace id, and nothing for an unknown id', async () => {
    const byCorrelation = await named('request_spans', { id: wfA });
    expect(byCorrelation.map((r) => r.span_id)).toEqual(
      ['a1', 'a2', 'a4', 'a3'].map((s) => s.padStart(16, '0')),
    );
    const byTrace = await named('request_spans', { id: TRACE_A });
    expect(byTrace).toEqual(byCorrelation);
    expect(await named('request_spans', { id: 'h11-no-such-request' })).toEqual([]);
  });
});

describe('retry_attempts', () => {
  it('attributes a retry to the failure before it, with the time waited in between', async () => {
    const rows = await named('retries_by_class', { from, to, service: '', source: '' });
    expect(rows).toEqual([
      {
        after_class: 'transient',
        retries: 1,
        succeeded: 1,
        max_attempt: 2,
        // Attempt 1 ended at +1.1 s, attempt 2 started at +2.0 s.
        wait_ns: 900000000,
        retry_duration_ns: 50000000,
      },
    ]);
  });

  it('follows each chain of one trace and service by span name, and ignores failures nobody retried', async () => {
    const rows = await named('retries_by_class', { from: retryFrom, to: retryTo, service: '', source: '' });
    expect(rows).toEqual([
      {
        after_class: 'rate_limit',
        retries: 2,
        succeeded: 1,
        max_attempt: 3,
        // d2 ended at +60 ms, d4 started at +2060; d4 ended at +2070, d5 started at +3000.
        wait_ns: 2930000000,
        retry_duration_ns: 40000000,
      },
      // f1 follows no recorded attempt: not e1, a failure of the same call in another trace.
      {
        after_class: 'after success',
        retries: 1,
        succeeded: 1,
        max_attempt: 2,
        wait_ns: 0,
        retry_duration_ns: 5000000,
      },
      // d3 follows d1 (ended at +100 ms), not d2 of the same trace and service.
      {
        after_class: 'transient',
        retries: 1,
        succeeded: 1,
        max_attempt: 2,
        wait_ns: 200000000,
        retry_duration_ns: 20000000,
      },
    ]);
  });
});

// The service filter tests a workflow's service bit (540); checkout and ledger share theirs
// (cityHash64 % 64 = 22), so a filter on either must still tell them apart. These workflows start
// 20 days after the others, out of every range above.
describe('the service filter and the entry service by hash (540)', () => {
  const T1 = T0 + 20 * 86_400;
  const later = { from: T1 - 60, to: T1 + 600 };
  const at = (s: number) => (T1 - T0) * 1000 + s * 1000;
  const spec = (
    cid: string,
    service: string,
    kind: 'Server' | 'Client',
    s: number,
    extra: Partial<SpanSpec> = {},
  ): SpanSpec => ({
    at: at(s),
    service,
    name: kind === 'Server' ? 'POST /orders' : 'GET /x',
    kind,
    trace: cid
      .padEnd(32, '0')
      .slice(0, 32)
      .replace(/[^0-9a-f]/g, 'e'),
    id: `${cid.length}${s}`.padStart(4, '9'),
    correlationId: cid,
    durationMs: 10,
    ...extra,
  });
  beforeAll(async () => {
    const spans = [
      // Entry checkout, a call out of ledger; its root failed (a classified call of checkout).
      spec('h540-a', 'checkout', 'Server', 1, { error: true }),
      spec('h540-a', 'ledger', 'Client', 2, {
        envelope: { class: 'permanent', source: 'http', code: '404' },
      }),
      // Entry ledger alone, succeeded.
      spec('h540-b', 'ledger', 'Server', 3),
      // Entry checkout alone, succeeded, with a call.
      spec('h540-c', 'checkout', 'Server', 4),
      spec('h540-c', 'checkout', 'Client', 5),
      // Entry payments, a call of inventory.
      spec('h540-d', 'payments', 'Server', 6),
      spec('h540-d', 'inventory', 'Client', 7),
    ];
    // One batch per span: each workflow is merged from partial rows.
    for (const s of spans) {
      await store.client.insert({ table: 'otel_traces', values: [row(s)], format: 'JSONEachRow' });
    }
  });

  it('counts exactly the workflows of a service, also when another service shares its bit', async () => {
    const [bits] = await (
      await store.client.query({
        query: "SELECT cityHash64('checkout') % 64 AS checkout, cityHash64('ledger') % 64 AS ledger",
        format: 'JSONEachRow',
      })
    ).json<Row>();
    expect(bits?.checkout).toBe(bits?.ledger);
    const count = async (service: string) =>
      Number((await named('workflows_summary', { ...later, service }))[0]!.workflows);
    expect(await count('')).toBe(4);
    expect(await count('checkout')).toBe(2);
    expect(await count('ledger')).toBe(2);
    expect(await count('payments')).toBe(1);
    expect(await count('inventory')).toBe(1);
    expect(await count('search')).toBe(0);
    const recent = await named('workflows_recent', {
      ...later,
      service: 'ledger',
      failed_only: false,
      limit: 10,
    });
    expect(recent.map((r) => r.correlation_id).sort()).toEqual(['h540-a', 'h540-b']);
  });

  it('names each entry service in budget_requests, failed requests under their class', async () => {
    const requests = await named('budget_requests', {
      ...later,
      ...burnWindowParams(),
      service: '',
      period_from: later.from,
    });
    expect(requests.map((r) => [r.service, r.class, Number(r.range_requests)])).toEqual([
      ['checkout', '', 1],
      ['checkout', 'permanent', 1],
      ['ledger', '', 1],
      ['payments', '', 1],
    ]);
    const ledger = await named('budget_requests', {
      ...later,
      ...burnWindowParams(),
      service: 'ledger',
      period_from: later.from,
    });
    expect(ledger.map((r) => [r.service, r.class, Number(r.range_requests)])).toEqual([['ledger', '', 1]]);
  });
});
