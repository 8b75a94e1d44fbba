import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderClusterSchema } from '../../src/cluster/index.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { openStore } from '../../src/open-store.js';
import type { Store } from '../../src/types.js';
import { insertAsExporter } from '../support/exporter-insert.js';
import { dateTime64, makeFailureRow, makeRow } from '../support/trace-row-fixture.js';

// The cluster form of the views, run on one shard: chDB has no cluster, but a one-shard cluster
// reads the same rows through the Distributed table as the single-node table holds, and a
// `failures_local` view over `failures` stands for the shard's local table. Each rendered view
// body must then answer exactly as the single-node view does.
let dir: string;
let store: Store;
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const RANGE = { from: '2026-11-29 11:00:00', to: '2026-11-29 13:00:00' };
const bare = renderClusterSchema(resolveSqlDir(), { cluster: 'prod' });
// The store's database is `default`, so the qualified form (what printClusterSchema prints) runs too.
const qualified = renderClusterSchema(resolveSqlDir(), { cluster: 'prod', database: 'default' });

/** The SELECT of the rendered view `name`. */
function viewBody(name: string, rendered = bare): string {
  const db = rendered === bare ? '' : 'default.';
  const head = `CREATE OR REPLACE VIEW ${db}${name} ON CLUSTER prod AS`;
  const statement = rendered.find((s) => s.startsWith(head));
  if (!statement) throw new Error(`no rendered view ${name}`);
  return statement.slice(head.length);
}

async function rows(query: string, params: Record<string, unknown> = {}): Promise<unknown[]> {
  const rs = await store.client.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-cluster-views-'));
  store = await openStore({ dataDir: join(dir, 'data'), ttlDays: 0 });
  expect(await rows('SELECT currentDatabase() AS db')).toEqual([{ db: 'default' }]);
  // The local table's MATERIALIZED columns too (SELECT * leaves them out): the views look spans up by them.
  await store.client.command({
    query: 'CREATE VIEW failures_local AS SELECT *, span_key, parent_key, caller_key FROM failures',
  });
  // One workflow (correlation id) over two traces, in two inserts: two partial rollup rows, which
  // in a cluster sit on the shards of their traces.
  const cid = 'req-two-traces';
  const traceA = 'a1'.repeat(16);
  const traceB = 'b2'.repeat(16);
  const base = { 'faultline.correlation_id': cid };
  await insertAsExporter(store, [
    makeRow({
      TraceId: traceA,
      SpanId: 'a0'.repeat(8),
      Timestamp: dateTime64(T0),
      SpanAttributes: { ...base },
    }),
    makeFailureRow(
      {
        class: 'transient',
        source: 'http',
        code: '503',
        message: 'down',
        retryable: 'true',
        correlation_id: cid,
      },
      {
        TraceId: traceA,
        SpanId: 'a1'.repeat(8),
        ParentSpanId: 'a0'.repeat(8),
        Timestamp: dateTime64(T0 + 10),
      },
    ),
  ]);
  await insertAsExporter(store, [
    makeRow({
      TraceId: traceB,
      SpanId: 'b0'.repeat(8),
      ServiceName: 'billing',
      Timestamp: dateTime64(T0 + 60_000),
      StatusCode: 'Error',
      SpanAttributes: { ...base },
    }),
    makeFailureRow(
      {
        class: 'permanent',
        source: 'db',
        code: '23505',
        message: 'dup',
        retryable: 'false',
        correlation_id: cid,
      },
      {
        TraceId: traceB,
        SpanId: 'b1'.repeat(8),
        ParentSpanId: 'b0'.repeat(8),
        ServiceName: 'billing',
        Timestamp: dateTime64(T0 + 60_010),
        SpanKind: 'Client',
      },
    ),
    // A failure whose callee failed too: an echo, which first_hand_failures leaves out.
    makeFailureRow(
      {
        class: 'permanent',
        source: 'http',
        code: '409',
        message: 'echo',
        retryable: 'false',
        correlation_id: cid,
      },
      {
        TraceId: traceB,
        SpanId: 'b2'.repeat(8),
        ParentSpanId: 'b0'.repeat(8),
        Timestamp: dateTime64(T0 + 60_020),
      },
    ),
    makeFailureRow(
      {
        class: 'permanent',
        source: 'http',
        code: '409',
        message: 'callee',
        retryable: 'false',
        correlation_id: cid,
      },
      {
        TraceId: traceB,
        SpanId: 'b3'.repeat(8),
        ParentSpanId: 'b2'.repeat(8),
        SpanKind: 'Server',
        Timestamp: dateTime64(T0 + 60_015),
      },
    ),
  ]);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the rendered views, read on one shard', () => {
  it('dashboard_workflows: the cross-shard merge answers as FINAL does', async () => {
    const partial = await rows('SELECT count() AS n FROM workflows_rollup');
    expect(partial).toEqual([{ n: 2 }]);
    const params = { ...RANGE, service: '' };
    const single = await rows(
      'SELECT * FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String})',
      params,
    );
    expect(single).toHaveLength(1);
    expect(await rows(viewBody('dashboard_workflows'), params)).toEqual(single);
    expect(await rows(viewBody('dashboard_workflows', qualified), params)).toEqual(single);
    const billing = { ...RANGE, service: 'billing' };
    expect(await rows(viewBody('dashboard_workflows'), billing)).toEqual(single);
  });

  it('first_hand_failures: the shard-local IN subqueries answer as the single-node view does', async () => {
    const order = ' ORDER BY SpanId';
    const single = await rows(
      `SELECT SpanId, class, code FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})${order}`,
      RANGE,
    );
    expect(single.map((r) => (r as { code: string }).code).sort()).toEqual(['23505', '409', '503']);
    for (const rendered of [bare, qualified]) {
      const body = viewBody('first_hand_failures', rendered);
      expect(await rows(`SELECT SpanId, class, code FROM (${body})${order}`, RANGE)).toEqual(single);
    }
    // The outbound calls' part on its own: its callee lookup reads the shard's caller_key.
    const client = await rows(
      `SELECT SpanId, class, code FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})${order}`,
      RANGE,
    );
    expect(client.map((r) => (r as { code: string }).code).sort()).toEqual(['23505', '503']);
    for (const rendered of [bare, qualified]) {
      const body = viewBody('first_hand_client_failures', rendered);
      expect(await rows(`SELECT SpanId, class, code FROM (${body})${order}`, RANGE)).toEqual(client);
    }
  });
});
