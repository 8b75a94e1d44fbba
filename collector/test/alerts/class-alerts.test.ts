import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateTime64, hexId, makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { startAlertmanager, startReceiver } from './receivers.js';

// The real next minute (Alertmanager judges endsAt by its own clock); the controlled clock stands
// 30 s into it, so the current minute is partial and the class-rate window is [T0-5m, T0).
const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Math.floor(Date.now() / MIN) * MIN + MIN;

function failed(service: string, ms: number, cls: string, source: string, code: string): TraceRow {
  return makeFailureRow(
    { class: cls, source, code, message: `${code} happened`, retryable: 'false' },
    { Timestamp: dateTime64(ms), ServiceName: service, SpanId: hexId(8), TraceId: hexId(16) },
  );
}
function many(n: number, service: string, atMs: number, cls: string, source: string, code: string) {
  return Array.from({ length: n }, (_, i) => failed(service, atMs + i * 50, cls, source, code));
}
/** n client failures of `service` that echo their callee's: each has a failed SERVER span under it in `callee`. */
function echoes(
  n: number,
  service: string,
  callee: string,
  atMs: number,
  cls: string,
  source: string,
  code: string,
) {
  return many(n, service, atMs, cls, source, code).flatMap((client) => [
    client,
    makeFailureRow(
      { class: cls, source: 'http', code, message: `${code} from ${callee}`, retryable: 'false' },
      {
        Timestamp: client.Timestamp,
        ServiceName: callee,
        SpanKind: 'Server',
        TraceId: client.TraceId,
        SpanId: hexId(8),
        ParentSpanId: client.SpanId,
      },
    ),
  ]);
}

/**
 * Rule 1, class_rate rate_limit × sdk above 50/min over 5 complete minutes:
 *  payments 50 ThrottlingException + 10 SlowDown a minute = 60/min → fires, top code ThrottlingException;
 *  the 40 more in the partial current minute do not count;
 *  orders 40/min from sdk (and 100/min rate_limit from http) → no; search exactly 50/min → not above.
 * Rule 2, new_code on checkout (7-day baseline, 60-minute window), 10 minutes before T0:
 *  57P01 (also 2 days ago) → not new; 410 → new; ThrottlingException (seen on payments, never on
 *  checkout) → new; 401 (last seen 8 days ago, before the baseline) → new; 503 (new, but each one
 *  echoes the failed server span of inventory it called) → not checkout's alert.
 * Rule 3, class_rate rate_limit × http above 50/min on gateway: 60/min 429s, every one an echo of
 *  the limiter service's own failure → counted where it happened (limiter's SERVER spans, which a
 *  class rate of outbound calls does not count), so no alert.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let m = 1; m <= 5; m++) {
    const at = T0 - m * MIN;
    rows.push(...many(50, 'payments', at, 'rate_limit', 'sdk', 'ThrottlingException'));
    rows.push(...many(10, 'payments', at + 5_000, 'rate_limit', 'sdk', 'SlowDown'));
    rows.push(...many(40, 'orders', at, 'rate_limit', 'sdk', 'ThrottlingException'));
    rows.push(...many(100, 'orders', at + 10_000, 'rate_limit', 'http', '429'));
    rows.push(...many(50, 'search', at, 'rate_limit', 'sdk', 'TooManyRequests'));
    rows.push(...echoes(60, 'gateway', 'limiter', at, 'rate_limit', 'http', '429'));
  }
  rows.push(...many(40, 'payments', T0 + 1_000, 'rate_limit', 'sdk', 'ThrottlingException'));
  rows.push(...many(4, 'checkout', T0 - 2 * DAY, 'transient', 'db', '57P01'));
  rows.push(...many(2, 'checkout', T0 - 8 * DAY, 'authentication', 'http', '401'));
  const recent = T0 - 10 * MIN;
  rows.push(...many(1, 'checkout', recent, 'transient', 'db', '57P01'));
  rows.push(...many(3, 'checkout', recent + 1_000, 'permanent', 'http', '410'));
  rows.push(...many(2, 'checkout', recent + 2_000, 'rate_limit', 'sdk', 'ThrottlingException'));
  rows.push(...many(1, 'checkout', recent + 3_000, 'authentication', 'http', '401'));
  rows.push(...echoes(2, 'checkout', 'inventory', recent + 4_000, 'transient', 'http', '503'));
  // Successful calls beside them, which no class rule counts.
  for (let i = 0; i < 20; i++)
    rows.push(
      makeRow({
        Timestamp: dateTime64(T0 - 2 * MIN + i * 100),
        ServiceName: 'checkout',
        SpanKind: 'Client',
        SpanId: hexId(8),
        TraceId: hexId(16),
        SpanAttributes: { 'faultline.source': 'http' },
      }),
    );
  return rows;
}

const RULES = `services:
  payments: { slo: 99.9 }
rules:
  - kind: class_rate
    class: rate_limit
    source: sdk
    per_minute: 50
  - kind: class_rate
    class: rate_limit
    source: http
    per_minute: 50
    service: gateway
  - kind: new_code
    service: checkout
`;

let dir: string;
let store: Store;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T0 + 30_000;

type Sent = AlertNotice & { labels: Record<string, string>; measure: AlertNotice['measure'] };
const sent = (status: string, alertname: string) =>
  hook.bodies.map((b) => b.body as Sent).filter((b) => b.status === status && b.alertname === alertname);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-class-alerts-'));
  writeFileSync(join(dir, 'rules.yaml'), RULES);
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
  am = await startAlertmanager();
  hook = await startReceiver(() => ({ status: 200 }));
});

afterAll(async () => {
  await am?.close();
  await hook?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function evaluator() {
  const config = resolveAlertConfig(
    { FAULTLINE_ALERT_INTERVAL_S: '1', FAULTLINE_ALERT_RULES: join(dir, 'rules.yaml') },
    { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
  );
  return createAlertEvaluator({ store, config, now: () => clock, post: { baseDelayMs: 20 } });
}

describe('class-aware alert rules from FAULTLINE_ALERT_RULES', () => {
  it('fires a class × source rate above its threshold, only there', async () => {
    const e = evaluator();
    await e.evaluate();
    await e.idle();
    const fired = sent('firing', 'FailureClassRate');
    expect(fired.map((n) => n.service)).toEqual(['payments']);
    const n = fired[0]!;
    expect(n.severity).toBe('page');
    expect(n.class).toBe('rate_limit');
    expect(n.labels).toEqual({ class: 'rate_limit', source: 'sdk' });
    expect(n.measure).toEqual({ value: 60, threshold: 50, unit: 'failures/min' });
    expect(n.breakdown.top).toEqual({
      class: 'rate_limit',
      source: 'sdk',
      code: 'ThrottlingException',
      failures: 250,
    });
    expect(n.summary).toBe(
      'payments: 60 rate_limit failures/min from sdk over 5m (above 50/min), top code ThrottlingException',
    );
    const inAm = (await am.alerts()).filter((a) => a.labels.alertname === 'FailureClassRate');
    expect(inAm.map((a) => a.labels)).toEqual([
      {
        alertname: 'FailureClassRate',
        service: 'payments',
        severity: 'page',
        class: 'rate_limit',
        source: 'sdk',
      },
    ]);
  });

  it('fires once per failure code never seen on the service in the prior period', async () => {
    const fired = sent('firing', 'NewFailureCode');
    expect(
      fired.map((n) => `${n.service} ${n.labels.class}/${n.labels.source}/${n.labels.code}`).sort(),
    ).toEqual([
      'checkout authentication/http/401',
      'checkout permanent/http/410',
      'checkout rate_limit/sdk/ThrottlingException',
    ]);
    expect(fired.every((n) => n.severity === 'ticket')).toBe(true);
    const c410 = fired.find((n) => n.labels.code === '410')!;
    expect(c410.class).toBe('permanent');
    expect(c410.measure?.value).toBe(3);
    expect(c410.summary).toBe(
      `checkout: new failure code permanent from http 410 (first seen ${new Date(T0 - 10 * MIN).toISOString()}, 3 failures; not seen in the prior 7 d)`,
    );
    const inAm = (await am.alerts()).filter((a) => a.labels.alertname === 'NewFailureCode');
    expect(inAm.map((a) => a.labels.code).sort()).toEqual(['401', '410', 'ThrottlingException']);
  });

  it('keeps a rule’s alerts as they were when its query fails, and the other rules run', async () => {
    const failing: Store = {
      ...store,
      runNamed: ((name: string, params?: Record<string, unknown>, opts?: object) =>
        name === 'alerts/alert_new_codes'
          ? Promise.reject(new Error('query failed'))
          : store.runNamed(name, params, opts)) as Store['runNamed'],
    };
    const config = resolveAlertConfig(
      { FAULTLINE_ALERT_INTERVAL_S: '1', FAULTLINE_ALERT_RULES: join(dir, 'rules.yaml') },
      { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
    );
    const e = createAlertEvaluator({ store: failing, config, now: () => clock, post: { baseDelayMs: 20 } });
    const out = await e.evaluate();
    await e.idle();
    expect(out.filter((n) => n.status === 'resolved')).toEqual([]);
    expect(sent('resolved', 'NewFailureCode')).toHaveLength(0);
    expect(sent('firing', 'NewFailureCode')).toHaveLength(3);
    expect(out.some((n) => n.alertname === 'FailureClassRate' && n.status === 'firing')).toBe(true);
  });

  it('does not re-fire after a restart, and resolves when the rule stops holding', async () => {
    clock = T0 + 30_000 + MIN;
    const second = evaluator();
    await second.evaluate();
    await second.idle();
    // Restarted within the window: still firing, nothing new on the webhook.
    expect(sent('firing', 'FailureClassRate')).toHaveLength(1);
    expect(sent('firing', 'NewFailureCode')).toHaveLength(3);
    // One minute on, payments' rate window [T0-4m, T0+1m) holds 4 × 60 + 40 = 280 → 56/min: still
    // above 50, so still firing (the burn-rate rules fire beside them: these spans are all failures).
    const classFiring = second.firing().filter((n) => n.alertname !== 'ErrorBudgetBurn');
    expect(classFiring.map((n) => `${n.alertname} ${n.service}`).sort()).toEqual([
      'FailureClassRate payments',
      'NewFailureCode checkout',
      'NewFailureCode checkout',
      'NewFailureCode checkout',
    ]);
    expect(classFiring.find((n) => n.alertname === 'FailureClassRate')?.measure?.value).toBe(56);
    expect(sent('resolved', 'FailureClassRate')).toHaveLength(0);

    // An hour later the burst is over and the codes are part of the baseline. Both services still
    // make calls (a service silent for an hour would be stale instead: stale-alerts.test.ts).
    clock = T0 + 30_000 + 61 * MIN;
    const live = ['checkout', 'payments'].flatMap((service) =>
      Array.from({ length: 5 }, (_, i) =>
        makeRow({
          Timestamp: dateTime64(T0 + 58 * MIN + i * 1000),
          ServiceName: service,
          SpanKind: 'Client',
          SpanId: hexId(8),
          TraceId: hexId(16),
          SpanAttributes: { 'faultline.source': 'http' },
        }),
      ),
    );
    await insertBatch(store.client, serializeRows(live));
    const third = evaluator();
    await third.evaluate();
    await third.idle();
    const resolved = hook.bodies
      .map((b) => b.body as Sent)
      .filter((b) => b.status === 'resolved' && b.alertname !== 'ErrorBudgetBurn');
    expect(resolved.map((n) => `${n.alertname} ${n.service} ${n.labels.code ?? ''}`).sort()).toEqual([
      'FailureClassRate payments ',
      'NewFailureCode checkout 401',
      'NewFailureCode checkout 410',
      'NewFailureCode checkout ThrottlingException',
    ]);
    // Alertmanager gets the resolve under the very labels it fired with.
    const c410 = (await am.alerts()).find((a) => a.labels.code === '410');
    expect(c410?.labels).toEqual({
      alertname: 'NewFailureCode',
      service: 'checkout',
      severity: 'ticket',
      class: 'permanent',
      source: 'http',
      code: '410',
    });
    expect(c410?.endsAt).toBe(new Date(clock).toISOString());
    const history = await store.runNamed<Record<string, unknown>>('alerts/alert_history', { limit: 100 });
    expect(
      history.rows
        .filter((r) => r.alertname === 'NewFailureCode')
        .map((r) => r.state)
        .sort(),
    ).toEqual(['firing', 'firing', 'firing', 'resolved', 'resolved', 'resolved']);
  });
});
