import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { listNamedQueries, openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeFailureRow, makeRow } from '../support/trace-row-fixture.js';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const at = (minutes: number, seconds = 0) => ({
  Timestamp: dateTime64(T0 + minutes * 60_000 + seconds * 1000),
});
const window = { from: '2026-11-29T12:00:00Z', to: '2026-11-29T13:00:00Z' };

/** A CLIENT call that succeeded; the preload tags its source so it counts in the denominators. */
function okCall(service: string, source: string, minute: number): TraceRow {
  return makeRow({
    ...at(minute),
    ServiceName: service,
    SpanKind: 'Client',
    SpanName: `${source} call`,
    SpanAttributes: { 'faultline.source': source },
  });
}

/**
 * The incident: checkout is rate-limited by an HTTP API and retries a unique-violation in the DB;
 * billing's SDK credentials expired. One 429 from two days earlier forms the baseline.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let i = 0; i < 10; i++)
    rows.push(makeRow({ ...at(0, i), ServiceName: 'checkout', TraceId: i === 0 ? 'trace-1' : `t-s${i}` }));
  for (let i = 0; i < 6; i++) rows.push(okCall('checkout', 'http', 0));
  for (let i = 0; i < 4; i++) rows.push(okCall('checkout', 'db', 0));
  for (let i = 0; i < 2; i++) rows.push(okCall('billing', 'sdk', 5));
  const env = { correlation_id: 'req-1' };
  for (let i = 0; i < 3; i++) {
    rows.push(
      makeFailureRow(
        {
          ...env,
          class: 'rate_limit',
          source: 'http',
          code: '429',
          message: 'slow down',
          retryable: 'true',
          retry_after: '5',
        },
        { ...at(0, 10 + i), ServiceName: 'checkout', TraceId: 'trace-1', Duration: 10_000_000 + i },
      ),
    );
  }
  rows.push(
    makeFailureRow(
      {
        class: 'transient',
        source: 'http',
        code: '503',
        message: 'upstream unavailable',
        retryable: 'true',
        attempt: '2',
      },
      { ...at(1), ServiceName: 'checkout', TraceId: 't-503', Duration: 900_000_000 },
    ),
  );
  rows.push(
    makeFailureRow(
      {
        ...env,
        class: 'permanent',
        source: 'db',
        code: '23505',
        message: 'duplicate key',
        retryable: 'false',
      },
      {
        ...at(2),
        ServiceName: 'checkout',
        TraceId: 'trace-1',
        SpanName: 'INSERT orders',
        Duration: 20_000_000,
      },
    ),
  );
  rows.push(
    makeFailureRow(
      {
        class: 'permanent',
        source: 'db',
        code: '23505',
        message: 'duplicate key',
        retryable: 'false',
        attempt: '2',
        misrouted_retry: 'true',
        correlation_id: 'req-2',
      },
      {
        ...at(2, 1),
        ServiceName: 'checkout',
        TraceId: 't-misrouted',
        SpanName: 'INSERT orders',
        Duration: 21_000_000,
      },
    ),
  );
  rows.push(
    makeFailureRow(
      {
        class: 'authentication',
        source: 'sdk',
        code: 'UnrecognizedClientException',
        message: 'token expired',
        retryable: 'false',
      },
      {
        ...at(5),
        ServiceName: 'billing',
        TraceId: 't-auth',
        SpanName: 'DynamoDB.GetItem',
        Duration: 5_000_000,
      },
    ),
  );
  rows.push(
    makeFailureRow(
      { class: 'rate_limit', source: 'http', code: '429', message: 'slow down', retryable: 'true' },
      { Timestamp: dateTime64(T0 - 2 * 86_400_000), ServiceName: 'checkout', TraceId: 't-old' },
    ),
  );
  return rows;
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-queries-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('incident-review queries (sql/queries/*.sql) on real data', () => {
  it('top_failure_classes ranks classes with their share', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('top_failure_classes', {
      ...window,
      service: '',
    });
    expect(rows.map((r) => [r.class, r.failures, r.pct_of_failures, r.retryable, r.sources])).toEqual([
      ['rate_limit', 3, 42.86, 3, ['http']],
      ['permanent', 2, 28.57, 0, ['db']],
      ['authentication', 1, 14.29, 0, ['sdk']],
      ['transient', 1, 14.29, 1, ['http']],
    ]);
    const billing = await store.runNamed<Record<string, unknown>>('top_failure_classes', {
      ...window,
      service: 'billing',
    });
    expect(billing.rows.map((r) => r.class)).toEqual(['authentication']);
  });

  it('failures_by_source divides by every outbound call to the source', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('failures_by_source', {
      ...window,
      service: '',
    });
    expect(rows.map((r) => [r.source, r.class, r.code, r.failures, r.source_calls, r.failure_rate])).toEqual([
      ['http', 'rate_limit', '429', 3, 10, 0.3],
      ['db', 'permanent', '23505', 2, 6, 0.333333],
      ['http', 'transient', '503', 1, 10, 0.1],
      ['sdk', 'authentication', 'UnrecognizedClientException', 1, 3, 0.333333],
    ]);
  });

  it('misrouted_retries finds the repeated non-retryable call', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('misrouted_retries', {
      ...window,
      service: '',
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      service: 'checkout',
      operation: 'INSERT orders',
      class: 'permanent',
      code: '23505',
      misrouted: 1,
      max_attempt: 2,
      example_correlation_id: 'req-2',
    });
  });

  it('request_timeline follows a correlation id, or a trace id, in time order', async () => {
    const byCorrelation = await store.runNamed<Record<string, unknown>>('request_timeline', {
      ...window,
      id: 'req-1',
    });
    expect(byCorrelation.rows.map((r) => [r.kind, r.class, r.code])).toEqual([
      ['Client', 'rate_limit', '429'],
      ['Client', 'rate_limit', '429'],
      ['Client', 'rate_limit', '429'],
      ['Client', 'permanent', '23505'],
    ]);
    const byTrace = await store.runNamed<Record<string, unknown>>('request_timeline', {
      ...window,
      id: 'trace-1',
    });
    expect(byTrace.rows).toHaveLength(5);
    expect(byTrace.rows[0]).toMatchObject({ kind: 'Server', class: '', attempt: 1 });
  });

  it("span_detail returns one span's texts uncut, found by trace and span id", async () => {
    const long = `${'x'.repeat(70_000)} end`;
    await insertBatch(
      store.client,
      serializeRows([
        makeFailureRow(
          { class: 'permanent', source: 'http', code: '500', message: long, correlation_id: 'req-detail' },
          // Outside the window the other cases count.
          {
            TraceId: 'trace-detail',
            SpanId: 'span-detail',
            ServiceName: 'detail',
            Timestamp: dateTime64(Date.UTC(2026, 9, 1)),
          },
        ),
      ]),
    );
    const { rows } = await store.runNamed<Record<string, unknown>>('span_detail', {
      trace_id: 'trace-detail',
      span_id: 'span-detail',
    });
    expect(rows).toHaveLength(1);
    expect([
      rows[0]!.service,
      (rows[0]!.message as string).length,
      (rows[0]!.message as string).slice(-4),
    ]).toEqual(['detail', 70_004, ' end']);
    expect(await store.runNamed('span_detail', { trace_id: 'trace-detail', span_id: 'other' })).toMatchObject(
      {
        rows: [],
      },
    );
  });

  it('retry_storms reports minutes with retries', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('retry_storms', {
      ...window,
      min_retries: 1,
    });
    expect(rows.map((r) => [r.minute, r.service, r.source, r.retries, r.calls])).toEqual([
      ['2026-11-29 12:01:00', 'checkout', 'http', 1, 1],
      ['2026-11-29 12:02:00', 'checkout', 'db', 1, 2],
    ]);
    const none = await store.runNamed('retry_storms', { ...window, min_retries: 2 });
    expect(none.rows).toEqual([]);
  });

  it('budget_burn_by_service says which class burns which budget', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('budget_burn_by_service', {
      ...window,
      slo: 0.99,
    });
    expect(rows.map((r) => [r.service, r.class, r.failures, r.outbound_calls, r.burn_rate])).toEqual([
      ['billing', 'authentication', 1, 3, 33.333],
      ['checkout', 'rate_limit', 3, 16, 18.75],
      ['checkout', 'permanent', 2, 16, 12.5],
      ['checkout', 'transient', 1, 16, 6.25],
    ]);
  });

  it('new_codes_since leaves out codes already seen in the baseline', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('new_codes_since', {
      since: '2026-11-29T00:00:00Z',
      baseline_days: 7,
    });
    expect(rows.map((r) => [r.class, r.code, r.failures])).toEqual([
      ['transient', '503', 1],
      ['permanent', '23505', 2],
      ['authentication', 'UnrecognizedClientException', 1],
    ]);
  });

  it('slowest_failures returns the longest failed calls first', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('slowest_failures', {
      ...window,
      service: '',
      limit: 2,
    });
    expect(rows.map((r) => [r.code, r.duration_ms])).toEqual([
      ['503', 900],
      ['23505', 21],
    ]);
  });

  it('every query in sql/queries has a description and is covered above', () => {
    // dashboard/ queries are covered by the dashboard's tests, alerts/ by test/alerts, agents/ by
    // test/queries/agent-queries.test.ts.
    const mine = listNamedQueries().filter((q) => !/^(dashboard|alerts|agents)\//.test(q.name));
    expect(mine.map((q) => q.name)).toEqual([
      'budget_burn_by_service',
      'failures_by_source',
      'misrouted_retries',
      'new_codes_since',
      'request_timeline',
      'retry_storms',
      'slowest_failures',
      'span_detail',
      'top_failure_classes',
    ]);
    for (const q of mine) expect(q.description.length).toBeGreaterThan(20);
    expect(mine.find((q) => q.name === 'slowest_failures')!.params).toEqual([
      { name: 'from', type: 'DateTime64(3)' },
      { name: 'to', type: 'DateTime64(3)' },
      { name: 'service', type: 'String' },
      { name: 'limit', type: 'UInt32' },
    ]);
  });
});
