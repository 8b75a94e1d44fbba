import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, hexId, makeRow } from '../support/trace-row-fixture.js';
import { withSampled } from '../support/with-sampled.js';

/**
 * What the stored spans of a sampled service stand for, through every rollup and budget query.
 * The scenario, as the preload's keep-every-failure sampling exports it at p = 1/4 (th:c):
 * - `shop` served 48 requests, each one outbound call to `pay`: 40 succeeded, of which the
 *   sampler kept 10 traces (root + call, th:c: each stands for 4), and 8 failed with a 503 (root
 *   and call kept whatever the sampler said, th:0: each stands for 1). So 40 + 8 = 48 requests,
 *   48 calls, 8 failed calls, 8 failed requests.
 * - One more request, in a trace the sampler dropped, whose first call failed (kept, th:0) and
 *   whose retry succeeded (dropped): its root was exported only as the failure's path
 *   (faultline.sampling.kept = path) and stands for no request, the sampled ones estimate it.
 *   So the stored spans say 49 calls, 9 of them failed, and still 48 requests.
 * - `legacy`, another SDK, sends 3 calls with no sampling mark: each counts 1, all unmarked.
 * - `counted` runs the preload's in-process counts (call_counts_1m): its 2 sampled calls (th:8,
 *   each 2) are overruled by the exact count of 7 calls and 3 entry requests for that minute.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const at = (s: number) => dateTime64(T0 + s * 1000);
const range = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00', service: '' };
const budget = { ...range, period_from: '2026-11-29 12:00:00', windows_s: [300, 3600] };
const filters = { ...range, source: '', class: '', dependency: '' };

/** What the preload writes on a failed call to `pay` (503), kept whatever the sampler said. */
const failedCallAttrs = {
  'faultline.class': 'transient',
  'faultline.code': '503',
  'faultline.retryable': 'true',
  'faultline.sampling.kept': 'failure',
};

function request(i: number, o: { traceState: string; failed: boolean; rootKept?: string }): TraceRow[] {
  const TraceId = hexId(16);
  const rootId = hexId(8);
  const corr = `shop-${i}`;
  const rootAttrs: Record<string, string> = {
    'http.request.method': 'POST',
    'http.response.status_code': o.failed ? '502' : '200',
    'faultline.correlation_id': corr,
    'faultline.entry': 'true',
    ...(o.rootKept ? { 'faultline.sampling.kept': o.rootKept } : {}),
    ...(o.failed
      ? {
          'faultline.class': 'transient',
          'faultline.source': 'http',
          'faultline.code': '502',
          'faultline.propagated': 'true',
          'faultline.sampling.kept': 'failure',
        }
      : {}),
  };
  const call = (failed: boolean, s: number): TraceRow =>
    makeRow({
      Timestamp: at(i + s),
      TraceId,
      ParentSpanId: rootId,
      TraceState: failed ? 'ot=th:0' : o.traceState,
      ServiceName: 'shop',
      SpanKind: 'Client',
      SpanName: 'POST',
      StatusCode: failed ? 'Error' : 'Unset',
      SpanAttributes: {
        'http.request.method': 'POST',
        'server.address': 'pay',
        'server.port': '8080',
        'url.full': 'http://pay:8080/charge',
        'faultline.correlation_id': corr,
        'faultline.entry': 'true',
        'faultline.source': 'http',
        'http.response.status_code': failed ? '503' : '200',
        ...(failed ? failedCallAttrs : {}),
      },
    });
  const root = makeRow({
    Timestamp: at(i),
    TraceId,
    SpanId: rootId,
    TraceState: o.failed ? 'ot=th:0' : o.traceState,
    ServiceName: 'shop',
    SpanKind: 'Server',
    SpanName: 'POST /checkout',
    StatusCode: o.failed ? 'Error' : 'Unset',
    SpanAttributes: rootAttrs,
  });
  return [root, call(o.failed, 0.1)];
}

function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let i = 0; i < 10; i++) rows.push(...request(i, { traceState: 'ot=th:c', failed: false }));
  for (let i = 10; i < 18; i++) rows.push(...request(i, { traceState: 'ot=th:0', failed: true }));
  // The retried request: a path-only root and its failed first attempt; the retry was dropped.
  const [root, failedCall] = request(20, { traceState: '', failed: false, rootKept: 'path' });
  rows.push(root!, {
    ...failedCall!,
    TraceState: 'ot=th:0',
    StatusCode: 'Error',
    SpanAttributes: { ...failedCall!.SpanAttributes, ...failedCallAttrs },
  });
  // The other services' GETs to api:443, `calls` of them a second apart from `at` seconds.
  const apiCalls = [
    { service: 'legacy', at: 30, calls: 3, traceState: '' },
    // `edge` started at 12:05:55: its 3 calls are stored in minute 12:05, and counted in the export
    // that ended at 12:06:05, filed under 12:06 (below): 3 calls, not 6.
    { service: 'edge', at: 355, calls: 3, traceState: '' },
    { service: 'counted', at: 40, calls: 2, traceState: 'ot=th:8' },
  ];
  for (const c of apiCalls)
    for (let i = 0; i < c.calls; i++)
      rows.push(
        makeRow({
          Timestamp: at(c.at + i),
          TraceState: c.traceState,
          ServiceName: c.service,
          SpanKind: 'Client',
          SpanName: 'GET',
          SpanAttributes: { 'http.request.method': 'GET', 'server.address': 'api', 'server.port': '443' },
        }),
      );
  return rows;
}

let dir: string;
let store: Store;
type Row = Record<string, unknown>;
const named = async (name: string, params: Record<string, unknown>): Promise<Row[]> =>
  (await store.runNamed<Row>(name, params)).rows;
const weighted = <P extends { from: unknown }>(params: P) => withSampled(store, params);
const byService = (rows: Row[]) => new Map(rows.map((r) => [String(r.service), r]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-sampling-counts-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
  // The preload's in-process counts for `counted` and `edge`, as the metrics receiver stores them.
  const counts = [
    { minute: '2026-11-29 12:00:00', ServiceName: 'counted', SpanKind: 'Client', calls: 7, entry: false },
    { minute: '2026-11-29 12:00:00', ServiceName: 'counted', SpanKind: 'Server', calls: 3, entry: true },
    { minute: '2026-11-29 12:06:00', ServiceName: 'edge', SpanKind: 'Client', calls: 3, entry: false },
  ].map((c) =>
    JSON.stringify({
      minute: c.minute,
      ServiceName: c.ServiceName,
      SpanKind: c.SpanKind,
      source: 'http',
      dependency: 'api:443',
      class: '',
      code: '',
      entry: c.entry,
      propagated: false,
      calls: c.calls,
      failures: 0,
    }),
  );
  await insertBatch(store.client, `${counts.join('\n')}\n`, { table: 'call_counts_1m' });
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('counts under trace sampling: each stored span stands for its weight', () => {
  it('calls: sampled successes count 1/p, kept failures 1, unmarked spans 1, exact counts overrule', async () => {
    // The stored spans' count, the minutes counted in process left out of it; those minutes' exact
    // counts beside (callBudgetInputs adds the two). This store has exact minutes, so the budget reads
    // budget_calls_beside_exact (readCallBudgetRows).
    const calls = byService(await named('dashboard/budget_calls_beside_exact', { ...budget, source: '' }));
    const exact = byService(await named('dashboard/budget_exact_calls', { ...budget, source: '' }));
    expect(calls.get('shop')).toMatchObject({ range_calls: 49, period_calls: 49 });
    expect(calls.get('shop')!.calls_windows).toEqual([0, 49]);
    expect(exact.get('shop')).toBeUndefined();
    expect(calls.get('legacy')).toMatchObject({ range_calls: 3 });
    expect(exact.get('legacy')).toBeUndefined();
    expect(calls.get('counted')).toBeUndefined();
    expect(exact.get('counted')).toMatchObject({ range_calls: 7, period_calls: 7 });
    // A minute whose calls were exported in the next one is counted once, exactly: its spans are
    // left out, the count of the next minute holds them.
    expect(calls.get('edge')).toBeUndefined();
    expect(exact.get('edge')).toMatchObject({ range_calls: 3 });
    // budget_calls, for a period with no exact minutes, counts every stored span: here it would
    // count edge's 3 calls twice, once beside the exact count.
    const stored = byService(await named('dashboard/budget_calls', { ...budget, source: '' }));
    expect(stored.get('edge')).toMatchObject({ range_calls: 3 });
    expect(stored.get('shop')).toEqual(calls.get('shop'));
  });

  it('a period without exact minutes reads the same from budget_calls as beside the exact count', async () => {
    for (const service of ['shop', 'legacy']) {
      const params = { ...budget, service, source: '' };
      expect(await named('dashboard/budget_exact_calls', params)).toEqual([]);
      const plain = await named('dashboard/budget_calls', params);
      expect(plain).toHaveLength(1);
      expect(await named('dashboard/budget_calls_beside_exact', params)).toEqual(plain);
      expect(await named('dashboard/budget_exact_requests', { ...budget, service })).toEqual([]);
      const requests = await named('dashboard/budget_requests', await weighted({ ...budget, service }));
      expect(
        await named('dashboard/budget_requests_beside_exact', await weighted({ ...budget, service })),
      ).toEqual(requests);
    }
  });

  it('the rows behind a calls figure (budget_call_rows) add up to each service’s budget calls', async () => {
    const rows = await named('dashboard/budget_call_rows', { ...range, source: '' });
    const budgetCalls = [
      ...(await named('dashboard/budget_calls_beside_exact', { ...budget, source: '' })),
      ...(await named('dashboard/budget_exact_calls', { ...budget, source: '' })),
    ];
    const sum = (xs: Row[], service: string, key: string) =>
      xs.filter((r) => (r.service ?? r.ServiceName) === service).reduce((s, r) => s + Number(r[key]), 0);
    for (const [service, calls] of Object.entries({ shop: 49, legacy: 3, counted: 7, edge: 3 })) {
      expect(sum(rows, service, 'calls'), service).toBe(calls);
      expect(sum(budgetCalls, service, 'range_calls'), service).toBe(calls);
    }
    expect(rows.filter((r) => r.ServiceName === 'counted').map((r) => r.counted)).toEqual(['exact']);
    const all = budgetCalls.reduce((s, r) => s + Number(r.range_calls), 0);
    expect(new Set(rows.map((r) => Number(r.total)))).toEqual(new Set([all]));
  });

  it('first-hand failures count each kept failure once, and the echo is no failure of its own', async () => {
    const rows = (await named('dashboard/budget_failures', { ...budget, ...filters })).filter(
      (r) => r.service === 'shop',
    );
    expect(rows.find((r) => r.class === 'transient')).toMatchObject({
      range_failures: 9,
      period_failures: 9,
    });
    expect(rows.find((r) => r.class === '')).toMatchObject({ range_all_failures: 9 });
  });

  it('requests: the sampled roots stand for 40, the failed 8 count once, a path-only root for none', async () => {
    const rows = await named('dashboard/budget_requests_beside_exact', await weighted(budget));
    const shop = rows.filter((r) => r.service === 'shop');
    expect(shop.find((r) => r.class === '')).toMatchObject({ range_requests: 40 });
    expect(shop.find((r) => r.class === 'transient')).toMatchObject({ range_requests: 8 });
    // `counted` stored no workflow: its requests are the exact count alone.
    expect(rows.filter((r) => r.service === 'counted')).toEqual([]);
    const exact = await named('dashboard/budget_exact_requests', budget);
    expect(exact).toEqual([expect.objectContaining({ service: 'counted', range_requests: 3 })]);
  });

  it('workflow panels: 48 workflows of one step each, 8 failed first at pay, the path-only one none', async () => {
    const shopOnly = { ...range, service: 'shop' };
    const [summary] = await named('dashboard/workflows_summary', shopOnly);
    expect(summary).toMatchObject({
      workflows: 48,
      failed_workflows: 8,
      total_steps: 48,
      total_failed_steps: 8,
      avg_steps: 1,
    });
    expect(await named('dashboard/workflows_by_steps', shopOnly)).toEqual([
      expect.objectContaining({ steps: 1, workflows: 48, succeeded: 40, total_failed_steps: 8 }),
    ]);
    const first = await named('dashboard/workflows_first_failure', await weighted(shopOnly));
    expect(first.map((r) => [r.first_class, r.first_code, r.failed_workflows])).toEqual([
      ['transient', '503', 8],
    ]);
  });

  it('the Workflows list a figure opens (workflows_matching_total) totals that figure', async () => {
    const shopOnly = { ...range, service: 'shop' };
    const any = {
      failed: -1,
      steps: -1,
      first: 0,
      first_class: '',
      first_service: '',
      first_source: '',
      first_code: '',
    };
    const total = async (f: Record<string, unknown>) =>
      (await named('dashboard/workflows_matching_total', await weighted({ ...shopOnly, ...any, ...f })))[0];
    expect(await total({})).toMatchObject({ workflows: 48 });
    expect(await total({ failed: 1 })).toMatchObject({ workflows: 8, stored: 8 });
    // 10 sampled roots standing for 4 each, and the path-only one standing for none.
    expect(await total({ failed: 0, steps: 1 })).toMatchObject({ workflows: 40, stored: 11 });
    const [first] = await named('dashboard/workflows_first_failure', await weighted(shopOnly));
    const key = {
      first: 1,
      first_class: first!.first_class,
      first_service: first!.first_service,
      first_source: first!.first_source,
      first_code: first!.first_code,
    };
    expect(await total({ failed: 1, ...key })).toMatchObject({ workflows: 8 });
    const listed = await named(
      'dashboard/workflows_matching',
      await weighted({
        ...shopOnly,
        ...any,
        failed: 1,
        ...key,
        limit: 5,
      }),
    );
    expect(listed).toHaveLength(5);
    for (const w of listed) expect(w).toMatchObject({ failed: true, first_failure_code: '503' });
  });

  it("the dependency's calls and first-hand failures are weighted alike", async () => {
    const rows = await named('dashboard/dependencies', { ...filters, per_edge: 3 });
    const pay = rows.find((r) => r.service === 'shop' && r.dependency === 'pay:8080');
    expect(pay).toMatchObject({ calls: 49, failures: 9, transient: 9 });
    expect(Number(pay!.error_rate)).toBeCloseTo(9 / 49, 9);
  });

  it('failure panels sum weights: matrix, top codes, codes rollup, class counts', async () => {
    const matrix = await named('dashboard/overview_matrix', filters);
    expect(matrix.filter((r) => r.failure_class === 'transient')).toEqual([
      expect.objectContaining({ failures: 9, retryable_failures: 9 }),
    ]);
    const codes = await named('dashboard/overview_top_codes', { ...filters, limit: 10 });
    expect(codes.find((r) => r.code === '503')).toMatchObject({ failures: 9 });
    // The minute rollup of every failure, echoes included: 9 calls and 8 roots.
    const rs = await store.client.query({
      query:
        "SELECT SpanKind, sum(failures) AS n FROM failure_codes_1m WHERE ServiceName = 'shop' GROUP BY SpanKind ORDER BY SpanKind",
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([
      { SpanKind: 'Client', n: 9 },
      { SpanKind: 'Server', n: 8 },
    ]);
  });

  it('sampling coverage: the estimate’s variance, the unmarked calls, the exact ones', async () => {
    const cov = byService(await named('dashboard/sampling_coverage', range));
    // 10 calls of weight 4 (each 4 × 3 to the variance), 9 of weight 1 (none), nothing unmarked
    // but the path-only root's… which is a SERVER span: not an outbound call.
    expect(cov.get('shop')).toMatchObject({
      estimated_calls: 49,
      variance: 120,
      unmarked_calls: 0,
      exact_calls: 0,
    });
    expect(cov.get('legacy')).toMatchObject({ estimated_calls: 3, variance: 0, unmarked_calls: 3 });
    expect(cov.get('counted')).toMatchObject({ estimated_calls: 4, variance: 4, exact_calls: 7 });
  });
});
