import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { openStore } from '../../src/index.js';
import { applyMigration, planMigration } from '../../src/migrate/migrate.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, hexId, makeRow } from '../support/trace-row-fixture.js';
import { withSampled } from '../support/with-sampled.js';

/**
 * A workflow (one correlation id) may hold more than one root request: a client that resubmits a
 * checkout under the same id, an async job resumed by a second request. The scenario, service `desk`:
 * - `once-0` … `once-2`: three workflows of one unsampled root request each.
 * - `twice`: one workflow, two unsampled root requests (the second a resubmission), one call each.
 * - `sampled-twice`: one workflow whose two root requests were each kept by a 1-in-4 sampler
 *   (th:c, each stands for 4 requests): it stands for 4 such workflows, of 8 requests.
 * So 3 + 1 + 4 = 8 workflows and 3 + 2 + 8 = 13 requests; steps: one call per root request, so
 * 3 + 2 + 4 × 2 = 13.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const at = (s: number) => dateTime64(T0 + s * 1000);
const range = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00', service: 'desk' };

function rootRequest(corr: string, s: number, traceState: string): TraceRow[] {
  const TraceId = hexId(16);
  const rootId = hexId(8);
  const attrs = { 'faultline.correlation_id': corr, 'faultline.entry': 'true' };
  return [
    makeRow({
      Timestamp: at(s),
      TraceId,
      SpanId: rootId,
      TraceState: traceState,
      ServiceName: 'desk',
      SpanKind: 'Server',
      SpanName: 'POST /tickets',
      SpanAttributes: { 'http.request.method': 'POST', 'http.response.status_code': '201', ...attrs },
    }),
    makeRow({
      Timestamp: at(s + 0.1),
      TraceId,
      ParentSpanId: rootId,
      TraceState: traceState,
      ServiceName: 'desk',
      SpanKind: 'Client',
      SpanName: 'POST',
      SpanAttributes: {
        'http.request.method': 'POST',
        'http.response.status_code': '200',
        'server.address': 'crm',
        'server.port': '443',
        'faultline.source': 'http',
        ...attrs,
      },
    }),
  ];
}

function scenario(): TraceRow[] {
  return [
    ...[0, 1, 2].flatMap((i) => rootRequest(`once-${i}`, i, '')),
    ...rootRequest('twice', 10, ''),
    ...rootRequest('twice', 20, ''),
    ...rootRequest('sampled-twice', 30, 'ot=th:c'),
    ...rootRequest('sampled-twice', 40, 'ot=th:c'),
  ];
}

let dir: string;
let store: Store;
const named = async (name: string, params: Record<string, unknown>) =>
  (await store.runNamed<Record<string, unknown>>(name, params)).rows;
const weighted = <P extends { from: unknown }>(params: P) => withSampled(store, params);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-workflow-weight-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a workflow with more than one root request', () => {
  it('counts once in the workflow panels, for what its roots stand for', async () => {
    const [summary] = await named('dashboard/workflows_summary', range);
    expect(summary).toMatchObject({ workflows: 8, failed_workflows: 0, total_steps: 13 });
    expect(await named('dashboard/workflows_by_steps', range)).toEqual([
      expect.objectContaining({ steps: 1, workflows: 3 }),
      expect.objectContaining({ steps: 2, workflows: 5 }),
    ]);
  });

  it('counts each of its root requests in the requests budget', async () => {
    const rows = await named(
      'dashboard/budget_requests',
      await weighted({
        ...range,
        period_from: range.from,
        windows_s: [3600],
      }),
    );
    // The estimate's variance: each sampled root's w(w - 1), 2 × 4 × 3; the unsampled requests, two
    // of them in one workflow, are exact and add none.
    expect(rows.map((r) => [r.service, r.class, r.range_requests, r.range_variance])).toEqual([
      ['desk', '', 13, 24],
    ]);
  });
});

describe('the minutes that hold sampled workflows (sampled_minutes, 535)', () => {
  /** The Workflows page's steps panel, read as workflow-data.ts reads it: stored counts where unsampled. */
  const pageWorkflows = async (params: typeof range) => {
    const { sampled } = await weighted(params);
    const rows = await named(
      sampled ? 'dashboard/workflows_by_steps' : 'dashboard/workflows_by_steps_stored',
      params,
    );
    return rows.reduce((n, r) => n + Number(r.workflows), 0);
  };

  it('the stored count equals the weighted one where no workflow was sampled, and only there', async () => {
    // once-0 … once-2 and twice, all unsampled: 12:00:00 to 12:00:25.
    const unsampled = { ...range, to: '2026-11-29 12:00:25' };
    const expected = [
      expect.objectContaining({ steps: 1, workflows: 3, succeeded: 3 }),
      expect.objectContaining({ steps: 2, workflows: 1, succeeded: 1 }),
    ];
    expect(await named('dashboard/workflows_by_steps_stored', unsampled)).toEqual(expected);
    expect(await named('dashboard/workflows_by_steps', unsampled)).toEqual(expected);
    // With sampled-twice in the range the stored count is 5, not the 8 workflows served: the
    // minute is marked, so the page reads the weights.
    const stored = await named('dashboard/workflows_by_steps_stored', range);
    expect(stored.reduce((n, r) => n + Number(r.workflows), 0)).toBe(5);
    expect((await weighted(range)).sampled).toBe(true);
    expect(await pageWorkflows(range)).toBe(8);
    // A range that starts after the marked minute holds no sampled workflow.
    expect((await weighted({ ...range, from: '2026-11-29 12:01:00' })).sampled).toBe(false);
  });

  it('are recorded as the workflows are stored, and only those', async () => {
    const rs = await store.client.query({
      query: "SELECT kind, toString(minute) AS minute FROM sampled_minutes FINAL WHERE kind = 'workflows'",
      format: 'JSONEachRow',
    });
    // sampled-twice's roots, 30 and 40 s past 12:00: the unsampled workflows mark nothing.
    expect(await rs.json()).toEqual([{ kind: 'workflows', minute: '2026-11-29 12:00:00' }]);
  });

  it('are filled on upgrade from the workflows stored before the table existed', async () => {
    await store.client.command({ query: 'TRUNCATE TABLE sampled_minutes' });
    // Without the minute, the page reads the stored count: the sampled workflow counts once.
    expect(await pageWorkflows(range)).toBe(5);
    await store.client.command({
      query: "ALTER TABLE schema_migrations DELETE WHERE kind = 'backfill' AND name = 'sampled_minutes'",
      clickhouse_settings: { mutations_sync: '2' },
    });
    const plan = await planMigration(store.client, resolveSqlDir());
    expect(plan.backfills.map((b) => b.name)).toEqual(['sampled_minutes']);
    await applyMigration(store.client, plan, { ttlDays: 0, backfill: true });
    expect(await pageWorkflows(range)).toBe(8);
  });
});
