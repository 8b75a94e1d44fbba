import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { insertAsExporter } from '../support/exporter-insert.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

// One checkout request, written span by span as the preload exports it (ground truth by hand):
//   checkout  SERVER POST /checkout            422 validation   propagated (preload: a call inside failed)
//   ├ checkout CLIENT POST inventory/reserve   422 validation   echo: its callee inventory failed
//   │ └ inventory SERVER POST /reserve         422 validation   propagated (preload)
//   │   ├ inventory CLIENT pg-pool.connect     ok               checkout: not a call
//   │   └ inventory CLIENT INSERT orders       23505 validation FIRST-HAND (1)
//   ├ checkout CLIENT DynamoDB.PutItem         ok after 2 attempts: attempt 1 ThrottlingException FIRST-HAND (2)
//   │ ├ checkout CLIENT POST (transport)       400              part of PutItem: not a call
//   │ └ checkout CLIENT POST (transport)       200              part of PutItem: not a call
//   ├ checkout CLIENT POST upstream/charge     503 transient    FIRST-HAND (3) (callee not instrumented)
//   └ checkout CLIENT POST upstream/charge     200, attempt 2   a hand-written repeat: a retry
// So: 3 first-hand failures, 3 echoes; checkout made 5 calls (reserve, PutItem ×2 attempts,
// charge ×2), inventory 1; 2 retries; the workflow has 3 steps, 1 of which failed for good
// (reserve), and its first failure is inventory's 23505.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const TRACE = 'a1'.repeat(16);
const CID = 'req-first-hand';

function span(
  id: string,
  parent: string,
  service: string,
  kind: 'Server' | 'Client',
  name: string,
  startMs: number,
  durationMs: number,
  attrs: Record<string, string>,
  failed = false,
): TraceRow {
  return makeRow({
    Timestamp: dateTime64(T0 + startMs),
    TraceId: TRACE,
    SpanId: id.padStart(16, '0'),
    ParentSpanId: parent === '' ? '' : parent.padStart(16, '0'),
    ServiceName: service,
    SpanKind: kind,
    SpanName: name,
    Duration: durationMs * 1_000_000,
    StatusCode: failed ? 'Error' : 'Unset',
    // The preload marks the entry service's spans: checkout received the request from outside.
    SpanAttributes: {
      'faultline.correlation_id': CID,
      ...(service === 'checkout' ? { 'faultline.entry': 'true' } : {}),
      ...attrs,
    },
  });
}

function envelope(cls: string, source: string, code: string, retryable = false): Record<string, string> {
  return {
    'faultline.class': cls,
    'faultline.source': source,
    'faultline.code': code,
    'faultline.message': `${code} happened`,
    'faultline.retryable': String(retryable),
  };
}

const SPANS: TraceRow[] = [
  span(
    '1',
    '',
    'checkout',
    'Server',
    'POST /checkout',
    0,
    100,
    {
      ...envelope('validation', 'http', '422'),
      'faultline.propagated': 'true',
    },
    true,
  ),
  span(
    '2',
    '1',
    'checkout',
    'Client',
    'POST',
    10,
    10,
    {
      ...envelope('validation', 'http', '422'),
      'url.full': 'http://inventory/reserve',
    },
    true,
  ),
  span(
    '3',
    '2',
    'inventory',
    'Server',
    'POST /reserve',
    11,
    8,
    {
      ...envelope('validation', 'http', '422'),
      'faultline.propagated': 'true',
    },
    true,
  ),
  span('4', '3', 'inventory', 'Client', 'pg-pool.connect', 11, 1, {
    'db.system.name': 'postgresql',
    'faultline.source': 'db',
    'faultline.call_role': 'checkout',
  }),
  span(
    '5',
    '3',
    'inventory',
    'Client',
    'INSERT orders',
    12,
    3,
    {
      ...envelope('validation', 'db', '23505'),
      'db.system.name': 'postgresql',
    },
    true,
  ),
  span('6', '1', 'checkout', 'Client', 'DynamoDB.PutItem', 30, 5, {
    'rpc.system': 'aws-api',
    'faultline.source': 'sdk',
    'faultline.attempts': '2',
    'faultline.previous_class': 'rate_limit',
    'faultline.previous_code': 'ThrottlingException',
    'faultline.previous_message': 'Rate of requests exceeds the allowed throughput.',
  }),
  span('7', '6', 'checkout', 'Client', 'POST', 30, 1, {
    'http.response.status_code': '400',
    'faultline.source': 'http',
    'faultline.call_role': 'transport',
  }),
  span('8', '6', 'checkout', 'Client', 'POST', 33, 1, {
    'http.response.status_code': '200',
    'faultline.source': 'http',
    'faultline.call_role': 'transport',
  }),
  span(
    '9',
    '1',
    'checkout',
    'Client',
    'POST',
    40,
    2,
    {
      ...envelope('transient', 'http', '503', true),
      'url.full': 'http://upstream/charge',
    },
    true,
  ),
  span('a', '1', 'checkout', 'Client', 'POST', 50, 2, {
    'faultline.source': 'http',
    'url.full': 'http://upstream/charge',
    'faultline.attempt': '2',
    'faultline.previous_class': 'transient',
    'faultline.previous_code': '503',
  }),
];

const RANGE = `from = '2026-11-29 11:00:00', to = '2026-11-29 13:00:00'`;
let dir: string;
let store: Store;

async function rows<T>(sql: string): Promise<T[]> {
  const rs = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return rs.json<T>();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-first-hand-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  // The callee's spans arrive in a batch of their own, after the caller's: echoes are decided when
  // read, so the order of arrival must not matter.
  await insertAsExporter(
    store,
    SPANS.filter((s) => s.ServiceName === 'checkout'),
  );
  await insertAsExporter(
    store,
    SPANS.filter((s) => s.ServiceName === 'inventory'),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('each failure counted once, where it happened', () => {
  it('first_hand_failures keeps the 23505, the throttled attempt and the 503, and no echo', async () => {
    const got = await rows<{ service: string; class: string; source: string; code: string; attempt: number }>(
      `SELECT ServiceName AS service, class, source, code, attempt FROM first_hand_failures(${RANGE}) ORDER BY Timestamp, code`,
    );
    expect(got).toEqual([
      { service: 'inventory', class: 'validation', source: 'db', code: '23505', attempt: 1 },
      { service: 'checkout', class: 'rate_limit', source: 'sdk', code: 'ThrottlingException', attempt: 1 },
      { service: 'checkout', class: 'transient', source: 'http', code: '503', attempt: 1 },
    ]);
  });

  it('keeps every failure row, echoes included, for per-service views', async () => {
    const [n] = await rows<{ all: number; propagated: number }>(
      `SELECT count() AS all, countIf(propagated) AS propagated FROM failures`,
    );
    // 5 classified spans + the throttled attempt; the preload marked 2 of them propagated.
    expect(n).toEqual({ all: 6, propagated: 2 });
  });

  it('a caller whose callee never reported stays first-hand', async () => {
    // The callee was not instrumented, or its spans were lost: nothing explains the 422, so it is
    // where the failure happened as far as anyone can tell.
    const lone = span('b', '', 'edge', 'Client', 'POST', 60, 2, envelope('validation', 'http', '422'), true);
    lone.TraceId = 'b2'.repeat(16);
    await insertAsExporter(store, [lone]);
    const got = await rows<{ service: string; code: string }>(
      `SELECT ServiceName AS service, code FROM first_hand_failures(${RANGE}) WHERE TraceId = '${'b2'.repeat(16)}'`,
    );
    expect(got).toEqual([{ service: 'edge', code: '422' }]);
  });
  it('a stock pool checkout and the connect under it are one failure, held by the checkout', async () => {
    // A stock SDK (no preload marks) with the database down: pg-pool.connect › pg.connect ›
    // tcp.connect (instrumentation-net) all fail with the same ECONNREFUSED. One call failed once.
    const trace = 'c3'.repeat(16);
    const stock = (id: string, parent: string, kind: 'Client' | 'Internal', name: string) => {
      const row = makeRow({
        Timestamp: dateTime64(T0 + 70_000),
        TraceId: trace,
        SpanId: id.padStart(16, '0'),
        ParentSpanId: parent === '' ? '' : parent.padStart(16, '0'),
        ServiceName: 'orders',
        SpanKind: kind,
        SpanName: name,
        StatusCode: 'Error',
        SpanAttributes: {
          ...envelope('transient', 'db', 'ECONNREFUSED', true),
          'db.system.name': 'postgresql',
        },
      });
      return row;
    };
    await insertAsExporter(store, [
      stock('c1', '', 'Client', 'pg-pool.connect'),
      stock('c2', 'c1', 'Client', 'pg.connect'),
      stock('c3', 'c2', 'Internal', 'tcp.connect'),
    ]);
    const got = await rows<{ name: string; code: string }>(
      `SELECT SpanName AS name, code FROM first_hand_failures(${RANGE}) WHERE TraceId = '${trace}'`,
    );
    expect(got).toEqual([{ name: 'pg-pool.connect', code: 'ECONNREFUSED' }]);
  });
});

describe('one logical call, one row', () => {
  it('calls_1m counts attempts, never checkouts or transport requests', async () => {
    const got = await rows<{ service: string; calls: number; retries: number }>(
      `SELECT ServiceName AS service, sum(calls) AS calls, sum(retries) AS retries FROM calls_1m
       WHERE SpanKind = 'Client' AND ServiceName IN ('checkout', 'inventory') GROUP BY service ORDER BY service`,
    );
    expect(got).toEqual([
      { service: 'checkout', calls: 5, retries: 2 },
      { service: 'inventory', calls: 1, retries: 0 },
    ]);
  });

  it('the workflow has 3 steps of the entry service, 1 failed, first failure the 23505', async () => {
    const [w] = await rows<Record<string, unknown>>(
      `SELECT entry_service, steps, failed_steps, retries, failed, first_failure_service, first_failure_source,
              first_failure_code, first_failure_class
       FROM dashboard_workflows(${RANGE}, service = '') WHERE correlation_id = '${CID}'`,
    );
    expect(w).toEqual({
      entry_service: 'checkout',
      steps: 3,
      failed_steps: 1,
      retries: 2,
      failed: true,
      first_failure_service: 'inventory',
      first_failure_source: 'db',
      first_failure_code: '23505',
      first_failure_class: 'validation',
    });
  });

  it('retry_attempts has the PutItem retry and the hand-written repeat, each with the class it followed', async () => {
    const got = await rows<{ span: string; attempt: number; class: string; previous_class: string }>(
      `SELECT SpanName AS span, attempt, class, previous_class FROM retry_attempts
       WHERE attempt > 1 ORDER BY Timestamp`,
    );
    expect(got).toEqual([
      { span: 'DynamoDB.PutItem', attempt: 2, class: '', previous_class: 'rate_limit' },
      { span: 'POST', attempt: 2, class: '', previous_class: 'transient' },
    ]);
  });
});
