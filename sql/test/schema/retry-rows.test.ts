import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, hexId, makeRow } from '../support/trace-row-fixture.js';

/**
 * retries_by_class (sql/queries/dashboard) applies retry_rows' window and rules (525:
 * faultline_retry_after_class, faultline_retry_waited_ns) to retry_attempts (520) itself instead of
 * reading through the view; this holds the two to the same rows, and both to a scenario whose
 * figures are known by hand. All in 12:00-13:00, times in ms after 12:00:00:
 * - A (shop, 'GET /pay', http): attempt 1 fails transient 503 at 1000 for 100 ms; attempt 2
 *   (faultline.attempt 2, faultline.previous_class transient) at 1300 for 50 ms succeeds: a retry
 *   after transient, waited 200 ms.
 * - B (shop, 'SELECT orders', db): attempt 1 fails rate_limit at 2000 for 20 ms; attempt 2 (no
 *   previous_class) at 2520 for 30 ms fails rate_limit again; attempt 3 (no previous_class) at 3550
 *   for 40 ms succeeds: two retries after rate_limit (the preceding row's class), waited 500 and
 *   1000 ms, one succeeded.
 * - C (cart, 'GET /price', http): attempt 1 fails transient 502 at 4000 for 200 ms (kept, th:0);
 *   the retry (http.request.resend_count 1, previous_class transient) at 4450 for 60 ms succeeds in
 *   a trace sampled at p = 1/4 (th:c): it stands for 4 retries, each waiting 250 ms.
 * - D (shop, 'GET /stock', http): attempt 1 succeeds at 5000 (not a retry_attempts row: neither
 *   failed nor a retry); attempt 2 (no previous_class) at 5100 for 10 ms and attempt 3 at 5400 for
 *   10 ms succeed: two retries 'after success', waited 0 (no stored predecessor) and 290 ms.
 * - E (shop, 'GET /pay'), two hours earlier: a transient failure and its retry, out of range.
 * - F (shop, 'POST /charge'), four hours earlier: attempt 1 fails rate_limit at -4 h for 100 ms,
 *   filed under source 'stripe' (its envelope's); the retry (faultline.attempt 2, no
 *   previous_class) 600 ms later for 30 ms succeeds under source 'http': a retry after rate_limit,
 *   waited 500 ms, counted under 'http' whatever source its previous attempt had.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const MS = 1_000_000;
const range = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00' };

interface Attempt {
  at: number;
  dur: number;
  attrs?: Record<string, string>;
  /** The failure envelope's class and code; none for an attempt that succeeded. */
  failed?: [string, string];
  traceState?: string;
}

function attempts(
  service: string,
  span: string,
  base: Record<string, string>,
  list: Attempt[],
): { rows: TraceRow[]; traceId: string } {
  const TraceId = hexId(16);
  const rows = list.map((a) =>
    makeRow({
      Timestamp: dateTime64(T0 + a.at),
      TraceId,
      TraceState: a.traceState ?? '',
      ServiceName: service,
      ResourceAttributes: { 'service.name': service },
      SpanKind: 'Client',
      SpanName: span,
      Duration: a.dur * MS,
      StatusCode: a.failed ? 'Error' : 'Unset',
      SpanAttributes: {
        ...base,
        'faultline.correlation_id': `${service}-${TraceId.slice(0, 6)}`,
        ...(a.failed
          ? { 'faultline.class': a.failed[0], 'faultline.code': a.failed[1], 'faultline.retryable': 'true' }
          : {}),
        ...a.attrs,
      },
    }),
  );
  return { rows, traceId: TraceId };
}

const http = { 'http.request.method': 'GET', 'server.address': 'pay', 'faultline.source': 'http' };
const db = { 'db.system.name': 'postgresql', 'db.namespace': 'shop', 'faultline.source': 'db' };

const A = attempts('shop', 'GET /pay', http, [
  { at: 1000, dur: 100, failed: ['transient', '503'] },
  { at: 1300, dur: 50, attrs: { 'faultline.attempt': '2', 'faultline.previous_class': 'transient' } },
]);
const B = attempts('shop', 'SELECT orders', db, [
  { at: 2000, dur: 20, failed: ['rate_limit', '53300'] },
  { at: 2520, dur: 30, failed: ['rate_limit', '53300'], attrs: { 'faultline.attempt': '2' } },
  { at: 3550, dur: 40, attrs: { 'faultline.attempt': '3' } },
]);
const C = attempts('cart', 'GET /price', http, [
  { at: 4000, dur: 200, failed: ['transient', '502'], traceState: 'ot=th:0' },
  {
    at: 4450,
    dur: 60,
    traceState: 'ot=th:c',
    attrs: { 'http.request.resend_count': '1', 'faultline.previous_class': 'transient' },
  },
]);
const D = attempts('shop', 'GET /stock', http, [
  { at: 5000, dur: 10 },
  { at: 5100, dur: 10, attrs: { 'faultline.attempt': '2' } },
  { at: 5400, dur: 10, attrs: { 'faultline.attempt': '3' } },
]);
const E = attempts('shop', 'GET /pay', http, [
  { at: -2 * 3_600_000, dur: 100, failed: ['transient', '503'] },
  {
    at: -2 * 3_600_000 + 300,
    dur: 50,
    attrs: { 'faultline.attempt': '2', 'faultline.previous_class': 'transient' },
  },
]);

const F = attempts('shop', 'POST /charge', http, [
  { at: -4 * 3_600_000, dur: 100, failed: ['rate_limit', '429'], attrs: { 'faultline.source': 'stripe' } },
  { at: -4 * 3_600_000 + 600, dur: 30, attrs: { 'faultline.attempt': '2' } },
]);

interface ByClass {
  after_class: string;
  retries: number;
  succeeded: number;
  max_attempt: number;
  wait_ns: number;
  retry_duration_ns: number;
}
const row = (
  after_class: string,
  retries: number,
  succeeded: number,
  max_attempt: number,
  waitMs: number,
  durationMs: number,
): ByClass => ({
  after_class,
  retries,
  succeeded,
  max_attempt,
  wait_ns: waitMs * MS,
  retry_duration_ns: durationMs * MS,
});

// By hand. Every figure is a sum of weights: C's retry counts 4 retries, 4 waits and 4 durations.
const TRANSIENT_ALL = row('transient', 1 + 4, 1 + 4, 2, 200 + 4 * 250, 50 + 4 * 60);
const RATE_LIMIT = row('rate_limit', 2, 1, 3, 500 + 1000, 30 + 40);
const AFTER_SUCCESS = row('after success', 2, 2, 3, 0 + 290, 10 + 10);
const EXPECTED: Record<string, { service: string; source: string; rows: ByClass[] }> = {
  all: { service: '', source: '', rows: [TRANSIENT_ALL, AFTER_SUCCESS, RATE_LIMIT] },
  shop: {
    service: 'shop',
    source: '',
    rows: [AFTER_SUCCESS, RATE_LIMIT, row('transient', 1, 1, 2, 200, 50)],
  },
  cart: { service: 'cart', source: '', rows: [row('transient', 4, 4, 2, 4 * 250, 4 * 60)] },
  db: { service: '', source: 'db', rows: [RATE_LIMIT] },
  'shop http': {
    service: 'shop',
    source: 'http',
    rows: [AFTER_SUCCESS, row('transient', 1, 1, 2, 200, 50)],
  },
};

/** The panel's sums, computed over the view. */
const OVER_VIEW = `SELECT
  after_class,
  sum(weight) AS retries,
  sumIf(weight, class = '') AS succeeded,
  max(attempt) AS max_attempt,
  sum(weight * waited_ns) AS wait_ns,
  sum(weight * Duration) AS retry_duration_ns
FROM retry_rows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String}, source = {source:String})
GROUP BY after_class
ORDER BY retries DESC, after_class`;

let dir: string;
let store: Store;
type Row = Record<string, unknown>;
const named = async (name: string, params: Record<string, unknown>): Promise<Row[]> =>
  (await store.runNamed<Row>(name, params)).rows;
const overView = async (params: Record<string, unknown>): Promise<Row[]> =>
  (await store.runReadOnly<Row>(OVER_VIEW, params)).rows;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-retry-rows-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows([A, B, C, D, E, F].flatMap((t) => t.rows)));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('retry_rows and retries_by_class: the same retries, the same figures', () => {
  it('the scenario stored the retry_attempts rows it means to (D’s successful first attempt is none)', async () => {
    const { rows } = await store.runReadOnly<Row>(
      `SELECT ServiceName AS service, SpanName AS span, attempt, class, previous_class, weight
       FROM retry_attempts WHERE Timestamp >= {from:DateTime} ORDER BY Timestamp`,
      { from: range.from },
    );
    expect(rows).toEqual([
      { service: 'shop', span: 'GET /pay', attempt: 1, class: 'transient', previous_class: '', weight: 1 },
      { service: 'shop', span: 'GET /pay', attempt: 2, class: '', previous_class: 'transient', weight: 1 },
      {
        service: 'shop',
        span: 'SELECT orders',
        attempt: 1,
        class: 'rate_limit',
        previous_class: '',
        weight: 1,
      },
      {
        service: 'shop',
        span: 'SELECT orders',
        attempt: 2,
        class: 'rate_limit',
        previous_class: '',
        weight: 1,
      },
      { service: 'shop', span: 'SELECT orders', attempt: 3, class: '', previous_class: '', weight: 1 },
      { service: 'cart', span: 'GET /price', attempt: 1, class: 'transient', previous_class: '', weight: 1 },
      { service: 'cart', span: 'GET /price', attempt: 2, class: '', previous_class: 'transient', weight: 4 },
      { service: 'shop', span: 'GET /stock', attempt: 2, class: '', previous_class: '', weight: 1 },
      { service: 'shop', span: 'GET /stock', attempt: 3, class: '', previous_class: '', weight: 1 },
    ]);
  });

  it('retries_by_class gives the figures worked out by hand', async () => {
    expect(await named('dashboard/retries_by_class', { ...range, service: '', source: '' })).toEqual(
      EXPECTED.all!.rows,
    );
  });

  for (const [name, c] of Object.entries(EXPECTED)) {
    it(`${name}: retries_by_class equals the same sums over retry_rows, and the hand figures`, async () => {
      const params = { ...range, service: c.service, source: c.source };
      const panel = await named('dashboard/retries_by_class', params);
      expect(panel).toEqual(await overView(params));
      expect(panel).toEqual(c.rows);
    });
  }

  it('a range without retries: both empty', async () => {
    const params = { from: '2026-11-29 14:00:00', to: '2026-11-29 15:00:00', service: '', source: '' };
    expect(await named('dashboard/retries_by_class', params)).toEqual([]);
    expect(await overView(params)).toEqual([]);
  });

  it('the range holding only E: its retry after transient, and no more', async () => {
    const params = { from: '2026-11-29 09:00:00', to: '2026-11-29 11:00:00', service: '', source: '' };
    const panel = await named('dashboard/retries_by_class', params);
    expect(panel).toEqual(await overView(params));
    expect(panel).toEqual([row('transient', 1, 1, 2, 200, 50)]);
  });

  it('a retry early in the range finds its previous attempt before it (B’s third, after 12:00:03)', async () => {
    // From 12:00:03: B's attempt 2 (rate_limit, ended at 2550 ms) lies before the range, its retry
    // (attempt 3 at 3550 ms) in it; C and D as in the whole hour. Read from the range alone, the
    // retry had no predecessor: 'after success', waited 0.
    const params = { from: '2026-11-29 12:00:03', to: range.to, service: '', source: '' };
    const panel = await named('dashboard/retries_by_class', params);
    expect(panel).toEqual(await overView(params));
    expect(panel).toEqual([
      row('transient', 4, 4, 2, 4 * 250, 4 * 60),
      row('after success', 2, 2, 3, 0 + 290, 10 + 10),
      row('rate_limit', 1, 1, 3, 1000, 40),
    ]);
    const listed = await named('dashboard/retries_listed', {
      ...params,
      after_class: 'rate_limit',
      succeeded: 0,
    });
    expect(listed.map((r) => [r.TraceId, r.attempt, r.total])).toEqual([[B.traceId, 3, 1]]);
  });

  it('the source filter keeps retries of the source, each after its own previous attempt (F)', async () => {
    const hours = { from: '2026-11-29 07:00:00', to: '2026-11-29 09:00:00', service: '' };
    for (const [source, expected] of [
      ['http', [row('rate_limit', 1, 1, 2, 500, 30)]],
      ['stripe', []],
      ['', [row('rate_limit', 1, 1, 2, 500, 30)]],
    ] as const) {
      const params = { ...hours, source };
      const panel = await named('dashboard/retries_by_class', params);
      expect(panel).toEqual(await overView(params));
      expect(panel).toEqual(expected);
    }
  });

  it('retries_listed lists exactly the retries a figure counts', async () => {
    const base = { ...range, service: '', source: '' };
    const transient = await named('dashboard/retries_listed', {
      ...base,
      after_class: 'transient',
      succeeded: 0,
    });
    expect(
      transient.map((r) => [r.TraceId, r.ServiceName, r.SpanName, r.attempt, r.class, r.weight, r.total]),
    ).toEqual([
      [C.traceId, 'cart', 'GET /price', 2, '', 4, 5],
      [A.traceId, 'shop', 'GET /pay', 2, '', 1, 5],
    ]);
    const rateLimit = await named('dashboard/retries_listed', {
      ...base,
      after_class: 'rate_limit',
      succeeded: 0,
    });
    expect(
      rateLimit.map((r) => [r.TraceId, r.attempt, r.class, r.code, r.source, r.weight, r.total]),
    ).toEqual([
      [B.traceId, 3, '', '', 'db', 1, 2],
      [B.traceId, 2, 'rate_limit', '53300', 'db', 1, 2],
    ]);
    const rateLimitOk = await named('dashboard/retries_listed', {
      ...base,
      after_class: 'rate_limit',
      succeeded: 1,
    });
    expect(rateLimitOk.map((r) => [r.TraceId, r.attempt, r.total])).toEqual([[B.traceId, 3, 1]]);
    const afterSuccess = await named('dashboard/retries_listed', {
      ...base,
      after_class: 'after success',
      succeeded: 0,
    });
    expect(afterSuccess.map((r) => [r.TraceId, r.attempt, r.total])).toEqual([
      [D.traceId, 3, 2],
      [D.traceId, 2, 2],
    ]);
  });

  it('for every figure of every filter, the listed rows sum to it (retries and succeeded)', async () => {
    for (const c of Object.values(EXPECTED)) {
      const params = { ...range, service: c.service, source: c.source };
      for (const fig of (await named('dashboard/retries_by_class', params)) as unknown as ByClass[]) {
        for (const succeeded of [0, 1]) {
          const listed = await named('dashboard/retries_listed', {
            ...params,
            after_class: fig.after_class,
            succeeded,
          });
          const sum = listed.reduce((s, r) => s + Number(r.weight), 0);
          expect(sum).toBe(succeeded ? fig.succeeded : fig.retries);
          for (const r of listed) expect(r.total).toBe(sum);
          if (!succeeded) expect(Math.max(...listed.map((r) => Number(r.attempt)))).toBe(fig.max_attempt);
        }
      }
    }
  });
});
