import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

// Who answered an edge (sql/schema/060, dashboard/dependencies' callee): the callers below dial
// endpoints that the callees' SERVER spans say they were reached at, in each spelling the
// OpenTelemetry HTTP and RPC conventions give a server span. The expected callee of each edge is
// the service this scenario put behind it.
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 30 * 60_000;
const H = 3_600_000;

type Edge = {
  caller: string;
  client: Record<string, string>;
  callee: string;
  server?: Record<string, string>;
  /** The callee's sampling mark on its span (OpenTelemetry probability sampling, ot=th). */
  traceState?: string;
};
const EDGES: Edge[] = [
  {
    caller: 'checkout',
    client: {
      'server.address': '127.0.0.1',
      'server.port': '37701',
      'url.full': 'http://127.0.0.1:37701/items',
    },
    callee: 'inventory',
    // Stable HTTP conventions: the Host header's host and port.
    server: { 'server.address': '127.0.0.1', 'server.port': '37701', 'http.route': '/items' },
  },
  {
    caller: 'checkout',
    client: { 'url.full': 'http://pricing:8080/quote' },
    callee: 'pricing',
    // Old conventions: http.host as the Host header sent it.
    server: { 'http.host': 'pricing:8080', 'http.method': 'GET' },
  },
  {
    caller: 'checkout',
    client: { 'http.url': 'http://ledger/entries' },
    callee: 'ledger',
    // Old conventions: net.host.name and the default port, which neither side writes.
    server: { 'net.host.name': 'ledger', 'net.host.port': '80' },
  },
  {
    caller: 'checkout',
    client: {
      'rpc.system': 'grpc',
      'rpc.service': 'shop.Stock',
      'rpc.method': 'Reserve',
      'server.address': '10.0.0.9',
    },
    callee: 'stock',
    server: { 'rpc.system': 'grpc', 'rpc.service': 'shop.Stock', 'rpc.method': 'Reserve' },
    // stock keeps 25% of its traces (th:c rejects 12/16): its one span stands for 4 requests.
    traceState: 'ot=th:c',
  },
  {
    caller: 'checkout',
    // A database answers no span of its own: the edge keeps its name.
    client: { 'db.system.name': 'postgresql', 'db.namespace': 'shop' },
    callee: '',
  },
  {
    caller: 'checkout',
    // The callee spells its host otherwise (localhost against 127.0.0.1): not matched, not guessed.
    client: { 'server.address': '127.0.0.1', 'server.port': '37800' },
    callee: '',
    server: { 'server.address': 'localhost', 'server.port': '37800' },
  },
];

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-endpoints-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  const batch: TraceRow[] = [];
  EDGES.forEach((e, i) => {
    const client = makeRow({
      Timestamp: dateTime64(T0 + i * 1000),
      ServiceName: e.caller,
      SpanKind: 'Client',
      SpanAttributes: { ...e.client, 'faultline.source': e.client['db.system.name'] ? 'db' : 'http' },
    });
    batch.push(client);
    if (e.server)
      batch.push(
        makeRow({
          TraceId: client.TraceId,
          ParentSpanId: client.SpanId,
          Timestamp: dateTime64(T0 + i * 1000 + 2),
          ServiceName: e.callee || 'other',
          SpanKind: 'Server',
          SpanAttributes: e.server,
          TraceState: e.traceState ?? '',
        }),
      );
  });
  // Port 37701 served by another service two hours earlier: the one seen there in the range wins.
  batch.push(
    makeRow({
      Timestamp: dateTime64(T0 - 2 * H),
      ServiceName: 'old-inventory',
      SpanKind: 'Server',
      SpanAttributes: { 'server.address': '127.0.0.1', 'server.port': '37701' },
    }),
  );
  await insertBatch(store.client, serializeRows(batch));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * checkout's edges and who answered at each, read as the Dependencies page reads them: the edges
 * (dashboard/dependencies), then request_callees at their endpoints (faultline_dependency_endpoint).
 */
async function edgeCallees(
  from: number,
  to: number,
): Promise<{ dependency: string; callee: string; callee_unsampled: number }[]> {
  const { rows: edges } = await store.runNamed<{ dependency: string }>('dashboard/dependencies', {
    from,
    to,
    service: 'checkout',
    source: '',
    dependency: '',
    class: '',
    per_edge: 3,
  });
  const { rows: endpoints } = await store.runReadOnly<{ dependency: string; endpoint: string }>(
    'SELECT d AS dependency, faultline_dependency_endpoint(d) AS endpoint FROM system.one ARRAY JOIN {deps:Array(String)} AS d',
    { deps: edges.map((e) => e.dependency) },
  );
  const { rows: callees } = await store.runNamed<{
    endpoint: string;
    callee: string;
    callee_unsampled: number;
  }>('dashboard/request_callees', { from, to, endpoints: endpoints.map((e) => e.endpoint) });
  return endpoints.map(({ dependency, endpoint }) => {
    const c = callees.find((r) => r.endpoint === endpoint);
    return { dependency, callee: c?.callee ?? '', callee_unsampled: Number(c?.callee_unsampled ?? 0) };
  });
}

describe('dependencies named by the service that answered', () => {
  it('names each edge by the service behind its endpoint, and only those', async () => {
    const from = Math.floor((T0 - 10 * 60_000) / 1000);
    const to = Math.floor((T0 + 10 * 60_000) / 1000);
    const rows = await edgeCallees(from, to);
    const got = Object.fromEntries(rows.map((r) => [r.dependency, r.callee]));
    expect(got).toEqual({
      '127.0.0.1:37701': 'inventory',
      'pricing:8080': 'pricing',
      ledger: 'ledger',
      'shop.Stock/Reserve': 'stock',
      'postgresql shop': '',
      '127.0.0.1:37800': '',
    });
  });

  it("says how much of the callee's traffic its sampling dropped: 3 of stock's 4 requests", async () => {
    const from = Math.floor((T0 - 10 * 60_000) / 1000);
    const to = Math.floor((T0 + 10 * 60_000) / 1000);
    const rows = await edgeCallees(from, to);
    const got = Object.fromEntries(rows.map((r) => [r.dependency, r.callee_unsampled]));
    expect(got['shop.Stock/Reserve']).toBe(0.75);
    expect(got['127.0.0.1:37701']).toBe(0);
    expect(got['postgresql shop']).toBe(0);
  });

  it('keeps the service that answered an endpoint earlier for a range that covers only then', async () => {
    const from = Math.floor((T0 - 2 * H - 60_000) / 1000);
    const to = Math.floor((T0 - 2 * H + 60_000) / 1000);
    const { rows } = await store.runReadOnly<{ endpoint: string; service: string }>(
      `SELECT endpoint, ServiceName AS service FROM service_endpoints
       WHERE hour >= toStartOfHour(toDateTime({from:UInt32})) AND hour < toDateTime({to:UInt32}) ORDER BY endpoint`,
      { from, to },
    );
    expect(rows).toEqual([{ endpoint: '127.0.0.1:37701', service: 'old-inventory' }]);
  });
});
