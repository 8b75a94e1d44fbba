import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateTime64, makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import { CALLS_METRIC, FAILURES_METRIC, renderPrometheusRules } from '../../src/alerts/prometheus-rules.js';
import { type Collector, startCollector } from '../../src/server/start-collector.js';

// A clock we control, 30 minutes in the past so every minute is complete. The counters add a
// minute once it is 120 s old (OUTBOUND_SETTLE_S); the first evaluation at M0 + 130 s sets the
// start at M0, so what came before M0 is never counted.
const MIN = 60_000;
const M0 = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
let clock = M0 + 130_000;

const call = (service: string, ms: number): TraceRow =>
  makeRow({
    Timestamp: dateTime64(ms),
    ServiceName: service,
    SpanKind: 'Client',
    SpanName: 'GET',
    SpanAttributes: { 'faultline.source': 'http', 'http.response.status_code': '200' },
  });
const failure = (service: string, ms: number, cls: string, source: string, code: string): TraceRow =>
  makeFailureRow(
    { class: cls, source, code, message: `${code} happened`, retryable: 'true' },
    { Timestamp: dateTime64(ms), ServiceName: service },
  );
/** A client failure of `service` echoing its callee's: a failed SERVER span of `callee` under it. */
function echo(service: string, callee: string, ms: number): TraceRow[] {
  const client = failure(service, ms, 'transient', 'http', '503');
  return [
    client,
    makeFailureRow(
      { class: 'transient', source: 'db', code: '40001', message: 'serialization failure' },
      {
        Timestamp: dateTime64(ms + 1),
        ServiceName: callee,
        SpanKind: 'Server',
        TraceId: client.TraceId,
        ParentSpanId: client.SpanId,
      },
    ),
  ];
}

/**
 * In [M0, M0 + 2 min): checkout makes 10 successful calls, 4 that fail first-hand (rate_limit from
 * sdk ThrottlingException) and 2 that fail because inventory (instrumented) failed under them: 16
 * outbound calls, 4 first-hand failures, 2 echoes. inventory's server spans are not outbound calls.
 * A hostile service name and source stay inside their labels. Before M0: 5 calls nobody counts.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let i = 0; i < 5; i++) rows.push(call('checkout', M0 - MIN + i * 1000));
  for (let i = 0; i < 10; i++) rows.push(call('checkout', M0 + i * 9_000));
  for (let i = 0; i < 4; i++)
    rows.push(failure('checkout', M0 + 30_000 + i * 1000, 'rate_limit', 'sdk', 'ThrottlingException'));
  rows.push(...echo('checkout', 'inventory', M0 + 70_000), ...echo('checkout', 'inventory', M0 + 80_000));
  rows.push(makeRow({ Timestamp: dateTime64(M0 + 5_000), ServiceName: 'checkout', SpanKind: 'Server' }));
  rows.push(failure('evil"svc\\\nx', M0 + 10_000, 'bogus', 'x y{}', 'E1'));
  return rows;
}

let dir: string;
let store: Store;
let collector: Collector;
let evaluator: ReturnType<typeof createAlertEvaluator>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-outbound-metrics-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
  evaluator = createAlertEvaluator({
    store,
    config: resolveAlertConfig({ FAULTLINE_ALERT_INTERVAL_S: '1' }, { dashboardUrl: 'http://dash.test' }),
    now: () => clock,
  });
  collector = await startCollector({
    store,
    port: 0,
    grpcPort: 0,
    writerOptions: { spoolDir: join(dir, 'wal') },
    extraMetrics: () => evaluator.metrics(),
  });
});

afterAll(async () => {
  await evaluator?.stop();
  await collector?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const scrape = async () => (await fetch(`${collector.url}/metrics`)).text();
const lines = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));

describe('/metrics outbound counters (what the generated Prometheus rules read)', () => {
  it('counts settled minutes of outbound calls and their first-hand failures and echoes', async () => {
    await evaluator.evaluate(); // sets the start at M0
    expect(lines(await scrape(), CALLS_METRIC)).toEqual([]);

    clock = M0 + 2 * MIN + 130_000; // [M0, M0 + 2 min) settled
    await evaluator.evaluate();
    const text = await scrape();
    expect(lines(text, CALLS_METRIC)).toEqual([
      `${CALLS_METRIC}{service="checkout"} 16`,
      `${CALLS_METRIC}{service="evil\\"svc\\\\\\nx"} 1`,
    ]);
    expect(lines(text, FAILURES_METRIC)).toEqual([
      `${FAILURES_METRIC}{service="checkout",class="rate_limit",source="sdk",first_hand="true"} 4`,
      `${FAILURES_METRIC}{service="checkout",class="transient",source="http",first_hand="false"} 2`,
      `${FAILURES_METRIC}{service="evil\\"svc\\\\\\nx",class="",source="other",first_hand="true"} 1`,
    ]);
    expect(text).toContain(`faultline_outbound_counted_until_seconds ${(M0 + 2 * MIN) / 1000}`);
    expect(text).toContain('faultline_alert_evaluations_total{outcome="ok"} 2');
  });

  it('only ever adds: a later minute raises the counters, a repeated evaluation does not', async () => {
    await insertBatch(
      store.client,
      serializeRows([
        failure('checkout', M0 + 2 * MIN + 5_000, 'rate_limit', 'sdk', 'ThrottlingException'),
        call('checkout', M0 + 2 * MIN + 6_000),
      ]),
    );
    clock = M0 + 3 * MIN + 130_000;
    await evaluator.evaluate();
    await evaluator.evaluate();
    const text = await scrape();
    expect(lines(text, CALLS_METRIC)[0]).toBe(`${CALLS_METRIC}{service="checkout"} 18`);
    expect(lines(text, FAILURES_METRIC)[0]).toBe(
      `${FAILURES_METRIC}{service="checkout",class="rate_limit",source="sdk",first_hand="true"} 5`,
    );
  });

  it('is valid exposition format, and carries every label the generated rules select on', async () => {
    const text = await scrape();
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.error, 'promtool missing: the pretest step installs Debian prometheus').toBeUndefined();
    // promtool's lint flags naming style (exit 3); an unparseable exposition is exit 1 with "error".
    expect(lint.stderr + lint.stdout).not.toMatch(/error while linting|text format parsing error/i);
    const rules = renderPrometheusRules(resolveAlertConfig({}));
    for (const selector of rules.match(/faultline_outbound_\w+_total\{[^}]*\}/g) ?? []) {
      for (const [, label] of selector.matchAll(/(\w+)[!=]~?"/g))
        expect(text).toMatch(new RegExp(`[{,]${label}="`));
    }
    expect(rules).toContain(`${FAILURES_METRIC}{first_hand="true"`);
  });
});
