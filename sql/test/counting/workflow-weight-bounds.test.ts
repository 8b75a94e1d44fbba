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
 * The workflow panels read a workflow's weight from packed_requests (530), in fixed point with 16
 * bits of fraction and at most 2^40 a row. Four workflows of one root request each, kept
 * by samplers of probability (OpenTelemetry th, p = 1 - th / 2^56):
 * - `half`: th:8, p = 1/2, weight 2 (exact in fixed point);
 * - `quarter`: th:c, p = 1/4, weight 4;
 * - `third`: th:aaaaaaaaaaaaab, p = 1/3 (to 56 bits), weight 3 within 2^-17;
 * - `hostile`: th:ffffffffffffff, p = 2^-56: a weight of 2^56 on the wire, bounded at 2^40.
 * So the workflows stand for 2 + 4 + 3 + 2^40.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const range = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00', service: '' };

function root(corr: string, s: number, th: string): TraceRow {
  return makeRow({
    Timestamp: dateTime64(T0 + s * 1000),
    TraceId: hexId(16),
    SpanId: hexId(8),
    TraceState: `ot=th:${th}`,
    ServiceName: 'desk',
    SpanKind: 'Server',
    SpanName: 'GET /tickets',
    SpanAttributes: {
      'http.request.method': 'GET',
      'http.response.status_code': '200',
      'faultline.correlation_id': corr,
    },
  });
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-workflow-weight-bounds-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows([
      root('half', 1, '8'),
      root('quarter', 2, 'c'),
      root('third', 3, 'aaaaaaaaaaaaab'),
      root('hostile', 4, 'ffffffffffffff'),
    ]),
  );
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the weight the workflow panels read (packed_requests, 530)', () => {
  it('is each root’s 1/p, within 2^-16, and at most 2^40', async () => {
    const { rows: weights } = await store.runReadOnly(
      'SELECT correlation_id, request_weight FROM dashboard_workflows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String}) ORDER BY correlation_id',
      range,
    );
    const byId = Object.fromEntries(weights.map((r) => [r.correlation_id, Number(r.request_weight)]));
    expect(byId.half).toBe(2);
    expect(byId.quarter).toBe(4);
    expect(Math.abs(byId.third! - 3)).toBeLessThan(2 ** -16);
    expect(byId.hostile).toBe(2 ** 40);
    const [summary] = (await store.runNamed<Record<string, unknown>>('dashboard/workflows_summary', range))
      .rows;
    expect(Number(summary!.workflows)).toBeCloseTo(2 + 4 + 3 + 2 ** 40, 3);
  });
});
