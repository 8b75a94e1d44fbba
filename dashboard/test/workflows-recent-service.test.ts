import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// workflows_recent with a service filter picks its cut-off among the newest partial rows that carry
// the service's bit, then merges the workflows that started after it whole (by primary key). A
// workflow's partial rows carry only the services of their own batch: here several workflows start
// in a batch without payments and get their payments spans in a later batch, one of them after the
// end of the range. Each answer is compared with the short path alone, the full merge alone, and
// the order these spans were laid out in.
let store: Store;
let dataDir: string;
const T0 = Date.UTC(2026, 1, 14, 12, 0, 0) / 1000;
const from = T0;
const to = T0 + 600;

const ts = (atS: number) => {
  const d = new Date((T0 + atS) * 1000);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.000000000`;
};

let spanId = 0;
/** One outbound call (a step) of workflow `wf`, `atS` seconds after T0, lasting 10 ms. */
function call(wf: string, service: string, atS: number) {
  spanId += 1;
  return {
    Timestamp: ts(atS),
    TraceId: Buffer.from(wf).toString('hex').padEnd(32, '0').slice(0, 32),
    SpanId: spanId.toString(16).padStart(16, '0'),
    ParentSpanId: '',
    SpanName: service === 'checkout' ? 'GET /stock' : 'POST /charge',
    SpanKind: 'Client',
    ServiceName: service,
    SpanAttributes: { 'faultline.correlation_id': wf, 'faultline.source': 'http' },
    Duration: 10_000_000,
    StatusCode: 'Unset',
  };
}

// billing-32 shares payments' service bit (cityHash64 % 64 = 27): its rows pass the pre-filter and
// the view's exact rule must drop them.
const COLLIDER = 'billing-32';
const older = Array.from({ length: 13 }, (_, i) => ({ wf: `svc-old-${i}`, at: 10 + i })); // +10..+22 s
const batch1 = [
  call('svc-before', 'checkout', -30), // starts before the range
  call('svc-long', 'checkout', 5), // starts early, payments only in batch 2
  call('svc-late', 'checkout', 450), // payments in batch 2, inside the range
  call('svc-edge', 'checkout', 590), // payments in batch 2, after the end of the range
  call('svc-p1', 'payments', 400),
  call('svc-p2', 'payments', 300),
  call('svc-p3', 'payments', 200),
  ...older.map(({ wf, at }) => call(wf, 'payments', at)),
  // The newest rows of all services are checkout's: among the newest 16 rows only svc-edge has
  // payments, so a cut-off from rows of every service finds too few and merges the whole range.
  ...Array.from({ length: 20 }, (_, i) => call(`svc-noise-${i}`, 'checkout', 460 + i)),
  call('svc-collider', COLLIDER, 470),
];
const batch2 = [
  call('svc-before', 'payments', 500),
  call('svc-long', 'payments', 480),
  call('svc-late', 'payments', 455),
  call('svc-edge', 'payments', 620),
];

// Every payments workflow that started in [from, to), newest first, as laid out above.
const PAYMENTS_IN_RANGE = [
  'svc-edge',
  'svc-late',
  'svc-p1',
  'svc-p2',
  'svc-p3',
  ...older.map((o) => o.wf).reverse(),
  'svc-long',
];

const SQL = readFileSync(
  new URL('../../sql/queries/dashboard/workflows_recent.sql', import.meta.url),
  'utf8',
);
const SUFFICE = 'NOT {failed_only:Bool} AND length(newest_keys) = {limit:UInt32} AS newest_suffice';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'faultline-recent-service-'));
  const { openStore } = await import('@faultline/sql');
  store = await openStore({ dataDir });
  for (const batch of [batch1, batch2]) {
    await store.client.insert({ table: 'otel_traces', values: batch, format: 'JSONEachRow' });
  }
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const recent = async (params: Row) =>
  (await store.runNamed<Row>('dashboard/workflows_recent', { failed_only: false, ...params })).rows;
/** workflows_recent with its path forced: only the short path's keys, or the full merge. */
const forced = async (path: 'short' | 'full', params: Row) => {
  expect(SQL).toContain(SUFFICE);
  const rs = await store.client.query({
    query: SQL.replace(SUFFICE, `${path === 'short'} AS newest_suffice`),
    query_params: { failed_only: false, ...params },
    format: 'JSON',
  });
  return (await rs.json<Row>()).data;
};
const ids = (rows: Row[]) => rows.map((r) => r.correlation_id);

describe('workflows_recent with a service filter', () => {
  it('takes the short path for the newest workflows of the service, merged whole, as the full merge answers', async () => {
    for (const limit of [2, 3]) {
      const params = { from, to, service: 'payments', limit };
      const short = await forced('short', params);
      // The short path found enough workflows by itself: the query did not fall back.
      expect(ids(short)).toEqual(PAYMENTS_IN_RANGE.slice(0, limit));
      expect(await forced('full', params)).toEqual(short);
      expect(await recent(params)).toEqual(short);
    }
    // svc-edge's first row (checkout, +590 s) lacks the payments bit, its payments row starts
    // after the range: listed from its start, with both rows merged.
    const [edge] = await recent({ from, to, service: 'payments', limit: 1 });
    expect(edge).toMatchObject({
      correlation_id: 'svc-edge',
      started: T0 + 590,
      duration_ns: 30_010_000_000,
      services: ['checkout', 'payments'],
      steps: 2,
    });
  });

  it('leaves out workflows that started before the range though their payments rows are inside it', async () => {
    // From +451 s: svc-late (+450), svc-long and svc-before have payments rows in the range.
    const params = { from: T0 + 451, to, service: 'payments', limit: 1 };
    expect(ids(await forced('short', params))).toEqual(['svc-edge']);
    expect(ids(await recent(params))).toEqual(['svc-edge']);
    expect(ids(await recent({ ...params, limit: 10 }))).toEqual(['svc-edge']);
    expect(ids(await recent({ from, to: T0 + 300, service: 'payments', limit: 2 }))).toEqual([
      'svc-p3',
      'svc-old-12',
    ]);
  });

  it('falls back to the full merge when fewer than limit workflows started after the cut-off', async () => {
    const params = { from, to, service: 'payments', limit: 20 };
    // Every payments row of the range is among the newest 160: the cut-off is svc-old-0's start,
    // after svc-long's, so the short path alone misses svc-long.
    expect(ids(await forced('short', params))).toEqual(PAYMENTS_IN_RANGE.slice(0, -1));
    const all = await recent(params);
    expect(ids(all)).toEqual(PAYMENTS_IN_RANGE);
    expect(await forced('full', params)).toEqual(all);
    expect(all.at(-1)).toMatchObject({ started: T0 + 5, services: ['checkout', 'payments'], steps: 2 });
  });

  it('drops a workflow of another service that shares the bit, and finds that service alone', async () => {
    // The premise: the engine puts COLLIDER on payments' bit, so its rows do pass the pre-filter.
    const { rows: bits } = await store.runReadOnly(
      'SELECT cityHash64({a:String}) % 64 AS a, cityHash64({b:String}) % 64 AS b',
      { a: COLLIDER, b: 'payments' },
    );
    expect(Number(bits[0]?.a)).toBe(27);
    expect(Number(bits[0]?.b)).toBe(27);
    const collider = await recent({ from, to, service: COLLIDER, limit: 1 });
    expect(ids(collider)).toEqual(['svc-collider']);
    expect(await forced('full', { from, to, service: COLLIDER, limit: 1 })).toEqual(collider);
    expect(await recent({ from, to, service: 'no-such-service', limit: 2 })).toEqual([]);
    expect(ids(await recent({ from, to, service: '', limit: 2 }))).toEqual(['svc-edge', 'svc-noise-19']);
  });
});
