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
 * The requests budget counts the requests that succeeded without merging their workflows
 * (root_requests, 550), and merges only the workflows with a failed root. Each workflow below
 * arrives in two insert blocks, as an exporter sends a request's child spans before its root, so
 * that workflows_rollup holds two rows of it until the engine merges them. Service `shop`:
 * - `split-ok`: a call that succeeded, then its root request (201) in the next block: 1 request
 *   that succeeded.
 * - `split-failed`: a call that failed (transient, 503), then its root request that failed (503):
 *   1 failed request, first failure transient.
 * - `call-failed-root-ok`: a call that failed (transient), then its root request that still
 *   succeeded (the caller recovered): 1 request that succeeded. Its first block alone, a row with
 *   no root whose last call failed, looks failed.
 * - `resubmitted`: a root request refused (rate_limit, 429), then a second request under the same
 *   correlation id that succeeded: one workflow that failed, so its 2 requests count as failed,
 *   first failure rate_limit (as dashboard_workflows counts a workflow's roots).
 * - `sampled-ok`: a child call, then its root request, each kept by a 1-in-4 sampler (th:c): 4
 *   requests that succeeded, variance 4 × 3 = 12.
 * So 1 + 1 + 4 = 6 requests succeeded, 1 + 2 = 3 failed.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const at = (s: number) => dateTime64(T0 + s * 1000);
const range = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00', service: '' };

interface Request {
  corr: string;
  s: number;
  status: number;
  rootClass?: string;
  call?: { status: number; class?: string };
  traceState?: string;
}

/** One request as two blocks: its call (if any), then its root server span. */
function request(r: Request): { call: TraceRow[]; root: TraceRow[] } {
  const TraceId = hexId(16);
  const rootId = hexId(8);
  const traceState = r.traceState ?? '';
  const attrs = { 'faultline.correlation_id': r.corr, 'faultline.entry': 'true' };
  const rootEnvelope: Record<string, string> = r.rootClass
    ? { 'faultline.class': r.rootClass, 'faultline.source': 'http', 'faultline.code': String(r.status) }
    : {};
  const root = makeRow({
    Timestamp: at(r.s),
    TraceId,
    SpanId: rootId,
    TraceState: traceState,
    ServiceName: 'shop',
    SpanKind: 'Server',
    SpanName: 'POST /orders',
    StatusCode: r.status >= 500 || r.rootClass ? 'Error' : 'Unset',
    SpanAttributes: {
      'http.request.method': 'POST',
      'http.response.status_code': String(r.status),
      ...attrs,
      ...rootEnvelope,
    },
  });
  const call = r.call
    ? [
        makeRow({
          Timestamp: at(r.s + 0.1),
          TraceId,
          ParentSpanId: rootId,
          TraceState: traceState,
          ServiceName: 'shop',
          SpanKind: 'Client',
          SpanName: 'POST',
          StatusCode: r.call.class ? 'Error' : 'Unset',
          SpanAttributes: {
            'http.request.method': 'POST',
            'http.response.status_code': String(r.call.status),
            'server.address': 'stock',
            'server.port': '443',
            'faultline.source': 'http',
            ...(r.call.class
              ? { 'faultline.class': r.call.class, 'faultline.code': String(r.call.status) }
              : {}),
            ...attrs,
          },
        }),
      ]
    : [];
  return { call, root: [root] };
}

const requests: Request[] = [
  { corr: 'split-ok', s: 1, status: 201, call: { status: 200 } },
  { corr: 'split-failed', s: 2, status: 503, call: { status: 503, class: 'transient' } },
  { corr: 'call-failed-root-ok', s: 3, status: 201, call: { status: 503, class: 'transient' } },
  { corr: 'resubmitted', s: 10, status: 429, rootClass: 'rate_limit' },
  { corr: 'resubmitted', s: 20, status: 201 },
  { corr: 'sampled-ok', s: 30, status: 201, call: { status: 200 }, traceState: 'ot=th:c' },
];

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-budget-requests-rows-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  const blocks = requests.map(request);
  // Held apart until the last test merges them: the engine would otherwise merge these small parts
  // within seconds, and with them each workflow's rows.
  await store.client.command({ query: 'SYSTEM STOP MERGES workflows_rollup' });
  // The calls first, in one block; then each root request in a block of its own.
  await insertBatch(store.client, serializeRows(blocks.flatMap((b) => b.call)));
  for (const b of blocks) await insertBatch(store.client, serializeRows(b.root));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const budgetRows = async (name: string) => {
  const params = await withSampled(store, { ...range, period_from: range.from, windows_s: [3600, 15] });
  const { rows } = await store.runNamed<Record<string, unknown>>(`dashboard/${name}`, params);
  return rows.map((r) => [r.service, r.class, r.range_requests, r.requests_windows, r.range_variance]);
};

// The last 15 s of the hour hold no request: each window of 15 s counts 0.
const expected = [
  ['shop', '', 6, [6, 0], 12],
  ['shop', 'rate_limit', 2, [2, 0], 0],
  ['shop', 'transient', 1, [1, 0], 0],
];

describe('the requests budget over workflows stored in several rows', () => {
  it('holds more than one row for the workflows sent in two blocks (the case under test)', async () => {
    const { rows } = await store.runReadOnly(
      'SELECT count() AS n FROM workflows_rollup WHERE correlation_id IN {ids:Array(String)}',
      { ids: ['split-ok', 'split-failed', 'call-failed-root-ok', 'resubmitted', 'sampled-ok'] },
    );
    expect(Number(rows[0]!.n)).toBe(10);
  });

  it('counts each request once: successes unmerged, failed workflows merged', async () => {
    expect(await budgetRows('budget_requests')).toEqual(expected);
    // Where no minute was counted in process, the page's other form reads the same.
    expect(await budgetRows('budget_requests_beside_exact')).toEqual(expected);
  });

  it('reads the same once the engine has merged each workflow into one row', async () => {
    await store.client.command({ query: 'SYSTEM START MERGES workflows_rollup' });
    await store.client.command({ query: 'OPTIMIZE TABLE workflows_rollup FINAL' });
    const { rows } = await store.runReadOnly(
      "SELECT count() AS n FROM workflows_rollup WHERE correlation_id = 'resubmitted'",
    );
    expect(Number(rows[0]!.n)).toBe(1);
    expect(await budgetRows('budget_requests')).toEqual(expected);
    expect(await budgetRows('budget_requests_beside_exact')).toEqual(expected);
  });
});
