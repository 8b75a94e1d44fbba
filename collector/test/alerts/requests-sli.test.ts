import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateTime64, hexId, makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';

const MIN = 60_000;
const T1 = Math.floor(Date.now() / MIN) * MIN + MIN;

/**
 * shop serves 20 requests in the 4 minutes before T1, each making 10 outbound calls; 4 requests
 * fail because one of their calls failed first-hand (rate_limit from sdk ThrottlingException).
 *  - calls SLI: 4 of 200 calls failed → 2% → 4× a 99.5% budget: a ticket (1× over 3 d and 6 h), no page;
 *  - requests SLI: 4 of 20 requests failed → 20% → 40×: a page (14.4× over 1 h and 5 m) and a ticket.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let r = 0; r < 20; r++) {
    const at = T1 - 4 * MIN + r * 10_000;
    const traceId = hexId(16);
    const rootId = hexId(8);
    const failed = r % 5 === 0;
    const attrs = { 'faultline.correlation_id': `req-${r}-${traceId}` };
    rows.push(
      makeRow({
        Timestamp: dateTime64(at),
        ServiceName: 'shop',
        TraceId: traceId,
        SpanId: rootId,
        SpanKind: 'Server',
        StatusCode: failed ? 'Error' : 'Unset',
        SpanAttributes: { ...attrs, 'http.response.status_code': failed ? '503' : '200' },
        Duration: 900_000_000,
      }),
    );
    for (let c = 0; c < 10; c++) {
      const common = {
        Timestamp: dateTime64(at + 10 + c * 50),
        ServiceName: 'shop',
        TraceId: traceId,
        ParentSpanId: rootId,
      };
      rows.push(
        failed && c === 9
          ? makeFailureRow(
              {
                class: 'rate_limit',
                source: 'sdk',
                code: 'ThrottlingException',
                message: 'slow down',
                ...{},
              },
              {
                ...common,
                SpanAttributes: {
                  ...attrs,
                  'faultline.class': 'rate_limit',
                  'faultline.source': 'sdk',
                  'faultline.code': 'ThrottlingException',
                },
              },
            )
          : makeRow({
              ...common,
              SpanKind: 'Client',
              SpanName: 'GetItem',
              SpanAttributes: { ...attrs, 'faultline.source': 'sdk' },
            }),
      );
    }
  }
  return rows;
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-requests-sli-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function firing(env: Record<string, string>) {
  const config = resolveAlertConfig(
    // What is counted is the point here, not how much: windows of 20 events (the 20 requests) are
    // judged, below the default minimum (thin-evidence.test.ts covers that).
    { FAULTLINE_ALERT_INTERVAL_S: '1', FAULTLINE_ALERT_MIN_EVENTS: '20', ...env },
    { dashboardUrl: 'http://dash.test' },
  );
  const e = createAlertEvaluator({ store, config, now: () => T1 + 1_000 });
  const out = await e.evaluate();
  await e.stop();
  return out.filter((n) => n.status === 'firing');
}

describe('FAULTLINE_ALERT_SLI', () => {
  it('calls (default): 2% of outbound calls failed opens a ticket, no page', async () => {
    const out = await firing({});
    expect(out.map((n) => `${n.service} ${n.severity} ${n.class}`)).toEqual(['shop ticket rate_limit']);
    expect(out[0]!.burnLong).toBeCloseTo(4, 6);
    expect(out[0]!.dashboardUrl).toContain('sli=calls');
  });

  it('requests: 20% of the entry service’s requests failed pages, naming the first-hand cause', async () => {
    const out = await firing({ FAULTLINE_ALERT_SLI: 'requests' });
    expect(out.map((n) => `${n.service} ${n.severity} ${n.class}`).sort()).toEqual([
      'shop page rate_limit',
      'shop ticket rate_limit',
    ]);
    const page = out.find((n) => n.severity === 'page')!;
    expect(page.burnLong).toBeCloseTo(40, 6);
    expect(page.breakdown.top).toEqual({
      class: 'rate_limit',
      source: 'sdk',
      code: 'ThrottlingException',
      failures: 4,
    });
    expect(page.dashboardUrl).toContain('sli=requests');
  });

  it('refuses another value, naming the variable and the choices', () => {
    expect(() => resolveAlertConfig({ FAULTLINE_ALERT_SLI: 'latency' })).toThrow(
      /FAULTLINE_ALERT_SLI=latency is not an SLI: use "requests".*or "calls"/,
    );
  });
});
