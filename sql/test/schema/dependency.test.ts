import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

// The dependency stored on failures rows and in dependency_calls_1m (sql/schema/006, 010, 040):
// golden values written by hand for the attribute sets the instrumentations set.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const failed = { 'faultline.class': 'transient', 'faultline.source': 'http', 'faultline.code': '503' };
const CASES: { name: string; kind?: string; attrs: Record<string, string>; dependency: string }[] = [
  {
    name: 'db (stable conventions)',
    attrs: {
      'db.system.name': 'postgresql',
      'db.namespace': 'shop',
      'server.address': 'db1',
      'server.port': '5432',
    },
    dependency: 'postgresql shop',
  },
  {
    name: 'db (old conventions)',
    attrs: { 'db.system': 'mysql', 'db.name': 'orders' },
    dependency: 'mysql orders',
  },
  { name: 'db without a namespace', attrs: { 'db.system.name': 'redis' }, dependency: 'redis' },
  {
    name: 'http with a port',
    attrs: { 'server.address': 'api.example.com', 'server.port': '8443' },
    dependency: 'api.example.com:8443',
  },
  {
    name: 'http on 443',
    attrs: {
      'server.address': 'api.example.com',
      'server.port': '443',
      'url.full': 'https://api.example.com/a/1',
    },
    dependency: 'api.example.com',
  },
  {
    name: 'url.full only',
    attrs: { 'url.full': 'http://inventory:8080/items/42' },
    dependency: 'inventory:8080',
  },
  {
    name: 'url.full with credentials and a query',
    attrs: { 'url.full': 'https://user:secret@files.example.com:8443/x?token=1' },
    dependency: 'files.example.com:8443',
  },
  {
    name: 'http.url (old conventions)',
    attrs: { 'http.url': 'https://api.example.com/v1/charges' },
    dependency: 'api.example.com',
  },
  {
    name: 'http with a route template',
    attrs: {
      'server.address': 'api.example.com',
      'url.template': '/users/{id}',
      'url.full': 'https://api.example.com/users/42',
    },
    dependency: 'api.example.com /users/{id}',
  },
  {
    name: 'rpc',
    attrs: { 'rpc.system': 'grpc', 'rpc.service': 'shop.Inventory', 'rpc.method': 'Reserve' },
    dependency: 'shop.Inventory/Reserve',
  },
  {
    name: 'aws',
    attrs: { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB', 'rpc.method': 'PutItem' },
    dependency: 'aws DynamoDB/PutItem',
  },
  {
    name: 'messaging',
    kind: 'Producer',
    attrs: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
    dependency: 'kafka orders',
  },
  {
    name: 'messaging, temporary destination',
    kind: 'Producer',
    attrs: {
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': 'amq.gen-4f2a',
      'messaging.destination.temporary': 'true',
    },
    dependency: 'rabbitmq temporary',
  },
  {
    name: 'peer.service wins over the address',
    attrs: { 'peer.service': 'payments', 'server.address': '10.0.0.5', 'server.port': '8080' },
    dependency: 'payments',
  },
  { name: 'nothing names it', attrs: { 'http.request.method': 'GET' }, dependency: '' },
  {
    name: 'a server span names no dependency (its address is its own)',
    kind: 'Server',
    attrs: { 'server.address': 'checkout.internal', 'server.port': '8080' },
    dependency: '',
  },
];

let dir: string;
let store: Store;

async function rows<T>(sql: string): Promise<T[]> {
  const rs = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return rs.json<T>();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-dependency-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  const batch: TraceRow[] = CASES.map((c, i) =>
    makeRow({
      Timestamp: dateTime64(T0 + i),
      SpanName: c.name,
      SpanKind: c.kind ?? 'Client',
      StatusCode: 'Error',
      SpanAttributes: { ...c.attrs, ...failed },
    }),
  );
  // An SDK operation its library retried (3 attempts): 3 failure rows (one per failed attempt,
  // 010's prior-attempts view), all under the operation's dependency.
  batch.push(
    makeRow({
      Timestamp: dateTime64(T0 + 100),
      SpanName: 'DynamoDB.PutItem retried',
      SpanKind: 'Client',
      ServiceName: 'orders',
      StatusCode: 'Error',
      Duration: 9_000_000,
      SpanAttributes: {
        'rpc.system': 'aws-api',
        'rpc.service': 'DynamoDB',
        'rpc.method': 'PutItem',
        'faultline.source': 'sdk',
        'faultline.class': 'rate_limit',
        'faultline.code': 'ThrottlingException',
        'faultline.attempts': '3',
        'faultline.previous_class': 'rate_limit',
        'faultline.previous_code': 'ThrottlingException',
      },
    }),
  );
  // Successful calls and a misrouted retry to one database: the rollup's calls, retries, latency.
  for (const [i, ms] of [10, 20, 30, 40].entries()) {
    batch.push(
      makeRow({
        Timestamp: dateTime64(T0 + 200 + i),
        SpanName: 'SELECT',
        SpanKind: 'Client',
        ServiceName: 'billing',
        Duration: ms * 1_000_000,
        SpanAttributes: {
          'db.system.name': 'postgresql',
          'db.namespace': 'ledger',
          'faultline.source': 'db',
          ...(i === 3 ? { 'faultline.attempt': '2', 'faultline.misrouted_retry': 'true' } : {}),
        },
      }),
    );
  }
  // A sampled caller (OpenTelemetry probability sampling): 4 successful calls kept at p = 1/8
  // (th:e, each standing for 8) of 10 ms, and 6 failed calls kept whatever the sampler said (th:0)
  // of 900 ms. The calls it made: 32 of 10 ms and 6 of 900 ms, so the median call took 10 ms,
  // though most stored spans took 900.
  for (let i = 0; i < 10; i++) {
    const failedCall = i >= 4;
    batch.push(
      makeRow({
        Timestamp: dateTime64(T0 + 300 + i),
        SpanName: 'GET',
        SpanKind: 'Client',
        ServiceName: 'sampled',
        TraceState: failedCall ? 'ot=th:0' : 'ot=th:e',
        StatusCode: failedCall ? 'Error' : 'Unset',
        Duration: (failedCall ? 900 : 10) * 1_000_000,
        SpanAttributes: {
          'server.address': 'api.example.com',
          'faultline.source': 'http',
          ...(failedCall
            ? {
                'faultline.class': 'transient',
                'faultline.code': 'ETIMEDOUT',
                'faultline.sampling.kept': 'failure',
              }
            : {}),
        },
      }),
    );
  }
  await insertBatch(store.client, serializeRows(batch));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('failures.dependency', () => {
  it('is what the call called, for each attribute set (hand-written golden values)', async () => {
    const got = await rows<{ span: string; dependency: string }>(
      "SELECT SpanName AS span, dependency FROM failures WHERE attempt = 1 AND code = '503' ORDER BY Timestamp",
    );
    expect(got).toEqual(CASES.map((c) => ({ span: c.name, dependency: c.dependency })));
  });

  it('equals faultline_dependency of the span for every kind that calls out', async () => {
    const got = await rows<{ stored: string; computed: string }>(
      `SELECT f.dependency AS stored, faultline_dependency(t.SpanAttributes) AS computed
       FROM failures AS f INNER JOIN otel_traces AS t ON t.SpanId = f.SpanId
       WHERE f.SpanKind != 'Server' AND f.ServiceName != 'sampled' ORDER BY f.Timestamp, f.attempt`,
    );
    expect(got.length).toBe(CASES.length - 1 + 3);
    for (const r of got) expect(r.stored).toBe(r.computed);
  });

  it("stores the operation's dependency on each failed attempt of an SDK's internal retries", async () => {
    expect(
      await rows(
        "SELECT attempt, class, dependency FROM failures WHERE SpanName = 'DynamoDB.PutItem retried' ORDER BY attempt",
      ),
    ).toEqual([
      { attempt: 1, class: 'rate_limit', dependency: 'aws DynamoDB/PutItem' },
      { attempt: 2, class: 'rate_limit', dependency: 'aws DynamoDB/PutItem' },
      { attempt: 3, class: 'rate_limit', dependency: 'aws DynamoDB/PutItem' },
    ]);
  });
});

describe('dependency_calls_1m', () => {
  it("weighs an edge's latency as its calls: the sampled caller's median call took 10 ms, not 900", async () => {
    const { rows: edges } = await store.runNamed<Record<string, unknown>>('dashboard/dependencies', {
      from: '2026-11-29 12:00:00',
      to: '2026-11-29 13:00:00',
      service: 'sampled',
      source: '',
      dependency: '',
      class: '',
      per_edge: 1,
    });
    // The edge was sampled: its stored spans' latency is not its calls', the weighted read is.
    expect(edges.map((e) => [e.calls, Number(e.calls_variance) > 0])).toEqual([[38, true]]);
    const { rows: weighted } = await store.runNamed<Record<string, unknown>>(
      'dashboard/dependency_latency_weighted',
      {
        from: '2026-11-29 12:00:00',
        to: '2026-11-29 13:00:00',
        source: '',
        services: ['sampled'],
        dependencies: edges.map((e) => String(e.dependency)),
      },
    );
    // 38 calls: 32 of 10 ms, 6 of 900 ms (the slowest 15.8%, so the 95th percentile is one of them).
    expect(weighted.map((e) => [e.p50_ms, e.p95_ms])).toEqual([[10, 900]]);
  });

  it('counts calls, failures, retries, misrouted retries and latency per service × dependency', async () => {
    const got = await rows(
      `SELECT ServiceName AS service, dependency, sum(calls) AS calls, sum(failures) AS failures,
         sum(retries) AS retries, sum(misrouted) AS misrouted,
         round(quantilesMerge(0.5, 0.95)(latency_ns)[1] / 1e6, 1) AS p50_ms
       FROM dependency_calls_1m
       WHERE ServiceName IN ('orders', 'billing')
       GROUP BY service, dependency ORDER BY dependency`,
    );
    // orders' PutItem: one span of 3 attempts (2 retries), each failed; ledger: 4 SELECTs of 10-40 ms, the
    // last a misrouted repeat (attempt 2), none failed; p50 of 10, 20, 30, 40 ms interpolates to 25.
    expect(got).toEqual([
      {
        service: 'orders',
        dependency: 'aws DynamoDB/PutItem',
        calls: 3,
        failures: 3,
        retries: 2,
        misrouted: 0,
        p50_ms: 9,
      },
      {
        service: 'billing',
        dependency: 'postgresql ledger',
        calls: 4,
        failures: 0,
        retries: 1,
        misrouted: 1,
        p50_ms: 25,
      },
    ]);
  });
});
