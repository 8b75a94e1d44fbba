import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { startAlertsServer } from '../../src/alerts/alerts-server.js';
import { judgeServices } from '../../src/alerts/service-verdicts.js';
import { MIN, minuteOfCalls } from './call-rows.js';
import { startAlertmanager, startReceiver } from './receivers.js';

// Alertmanager judges endsAt by its own clock, so the controlled clock starts at the real next minute.
const T1 = Math.floor(Date.now() / MIN) * MIN + MIN;

/**
 * The case, under the default SLO (99.5%) and minimum (250 events per window):
 *  fresh: a healthy service's first 50 calls, 10 a minute over the 5 minutes before T1, one of
 *    them failed (transient http 503): 1/50 = 2%, a burn of 1/50/0.005 = 4× in every window: a
 *    ticket (1× over 3 d and 6 h) on 50 events without the minimum; with it, nothing.
 *  payments: 60 calls a minute over the same 5 minutes, 9 of them failed (rate_limit from sdk
 *    ThrottlingException): 45/300 = 15%, 30× over 300 events in every window: a page and a ticket.
 * Then fresh keeps going without another failure (50 calls a minute, then 1700 at once: 2000
 * calls, 0.05%): it never alerts.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let m = 1; m <= 5; m++) {
    rows.push(...minuteOfCalls('fresh', T1 - m * MIN, m === 5 ? 9 : 10, m === 5 ? 1 : 0));
    rows.push(
      ...minuteOfCalls('payments', T1 - m * MIN, 51, 9, ['rate_limit', 'sdk', 'ThrottlingException']),
    );
  }
  return rows;
}

let dir: string;
let store: Store;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T1;

/** The generic webhook's bodies about a service (webhookPayload). */
type Delivered = AlertNotice & { burnRates: Record<string, number> };
const delivered = (service: string) =>
  hook.bodies.map((b) => b.body as Delivered).filter((n) => n.service === service);
const config = () =>
  resolveAlertConfig(
    { FAULTLINE_ALERT_INTERVAL_S: '1' },
    { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-thin-evidence-'));
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

describe('a minimum of events per burn window (FAULTLINE_ALERT_MIN_EVENTS, default 250)', () => {
  const evaluator = createAlertEvaluatorLazily();

  it('stays quiet on a healthy service’s first 50 calls with one failure, and pages the burning one by its class', async () => {
    const e = evaluator();
    const out = await e.evaluate();
    await e.idle();
    expect(out.map((n) => `${n.service} ${n.severity} ${n.status} ${n.class}`).sort()).toEqual([
      'payments page firing rate_limit',
      'payments ticket firing rate_limit',
    ]);
    expect(delivered('fresh')).toEqual([]);
    const page = delivered('payments').find((n) => n.severity === 'page');
    expect(page).toMatchObject({ status: 'firing', class: 'rate_limit', alertname: 'ErrorBudgetBurn' });
    expect(page?.burnRates['1h']).toBeCloseTo(30, 6);
    expect(page?.burnRates['5m']).toBeCloseTo(30, 6);
    expect(page?.breakdown.classes).toEqual([{ class: 'rate_limit', failures: 45, share: 1 }]);
    const inAm = await am.alerts();
    expect(inAm.filter((a) => a.labels.service === 'fresh')).toEqual([]);
    expect(
      inAm
        .filter((a) => a.labels.service === 'payments')
        .map((a) => `${a.labels.severity} ${a.labels.class}`)
        .sort(),
    ).toEqual(['page rate_limit', 'ticket rate_limit']);
  });

  it('would have opened the issue’s ticket without the minimum', async () => {
    const loose = await judgeServices(store, { ...config(), minEvents: 1 }, clock);
    expect(loose.findings.filter((f) => f.service === 'fresh').map((f) => f.severity)).toEqual(['ticket']);
  });

  it('says “not enough traffic to judge” per window and rule, and a burn where there is enough', async () => {
    const judged = evaluator().services();
    expect(judged?.atMs).toBe(T1);
    const fresh = judged!.services.find((s) => s.service === 'fresh')!;
    expect(fresh).toMatchObject({ stale: false, minEvents: 250, lastSeenS: T1 / 1000 });
    for (const w of fresh.windows) {
      expect(w, w.window).toMatchObject({ events: 50, failures: 1, verdict: 'insufficient_traffic' });
      expect(w.burn).toBeCloseTo(4, 6);
    }
    expect(fresh.rules.map((r) => `${r.severity} ${r.long}/${r.short} ${r.verdict}`)).toEqual([
      'page 1h/5m insufficient_traffic',
      'page 6h/30m insufficient_traffic',
      'ticket 3d/6h insufficient_traffic',
    ]);
    const payments = judged!.services.find((s) => s.service === 'payments')!;
    expect(payments.windows.map((w) => [w.window, w.events, w.failures, w.verdict])).toEqual([
      ['5m', 300, 45, 'judged'],
      ['30m', 300, 45, 'judged'],
      ['1h', 300, 45, 'judged'],
      ['6h', 300, 45, 'judged'],
      ['3d', 300, 45, 'judged'],
    ]);
    expect(payments.rules.map((r) => r.verdict)).toEqual(['burning', 'burning', 'burning']);

    // The same reading over the alerts API, for the Alerts page.
    const server = await startAlertsServer({ evaluator: evaluator(), intervalS: 1, port: 0 });
    try {
      const res = await fetch(`${server.url}/api/alerts/services`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        evaluatedAt: string;
        services: { service: string; lastSeenAt: string; windows: { verdict: string }[] }[];
      };
      expect(body.evaluatedAt).toBe(new Date(T1).toISOString());
      const viaApi = body.services.find((s) => s.service === 'fresh')!;
      expect(viaApi.lastSeenAt).toBe(new Date(T1).toISOString());
      expect(viaApi.windows.map((w) => w.verdict)).toEqual(Array(5).fill('insufficient_traffic'));
    } finally {
      await server.close();
    }
  });

  it('keeps quiet as the service grows to 2000 calls without another failure', async () => {
    const e = evaluator();
    // Calls so far, after each step: 100, 150, 200, 250, 300, then 2000.
    const steps = [50, 50, 50, 50, 50, 1700];
    let total = 50;
    for (const [k, n] of steps.entries()) {
      await insertBatch(store.client, serializeRows(minuteOfCalls('fresh', T1 + k * MIN, n)));
      total += n;
      clock = T1 + (k + 1) * MIN;
      const out = await e.evaluate();
      expect(
        out.filter((x) => x.service === 'fresh'),
        `${total} calls`,
      ).toEqual([]);
      const ticket = e.services()!.services.find((s) => s.service === 'fresh')!.rules[2]!;
      // Judged from 250 calls on: one failure in 250 is 0.4%, a burn of 0.8, under the ticket's 1×.
      expect(ticket.verdict, `${total} calls`).toBe(total < 250 ? 'insufficient_traffic' : 'ok');
    }
    expect(total).toBe(2000);
    const threeDays = e.services()!.services.find((s) => s.service === 'fresh')!.windows[4]!;
    expect(threeDays).toMatchObject({ window: '3d', events: 2000, failures: 1, verdict: 'judged' });
    expect(threeDays.burn).toBeCloseTo(0.1, 6);
    await e.idle();
    expect(delivered('fresh')).toEqual([]);
    expect((await am.alerts()).filter((a) => a.labels.service === 'fresh')).toEqual([]);
  });
});

/** One evaluator for the file, made on first use (the receivers start in beforeAll). */
function createAlertEvaluatorLazily() {
  let e: ReturnType<typeof createAlertEvaluator> | undefined;
  return () => {
    e ??= createAlertEvaluator({ store, config: config(), now: () => clock, post: { baseDelayMs: 20 } });
    return e;
  };
}
