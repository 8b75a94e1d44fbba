import { mkdtempSync, rmSync } from 'node:fs';
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

// Alertmanager judges endsAt by its own clock, so the controlled clock starts at the real next minute.
const T1 = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
const MIN = 60_000;

function ok(service: string, ms: number): TraceRow {
  return makeRow({
    Timestamp: dateTime64(ms),
    ServiceName: service,
    SpanKind: 'Client',
    SpanId: hexId(8),
    TraceId: hexId(16),
    SpanName: 'call',
    SpanAttributes: { 'faultline.source': 'sdk' },
  });
}
function failed(service: string, ms: number, cls: string, source: string, code: string): TraceRow {
  return makeFailureRow(
    { class: cls, source, code, message: code, retryable: 'true' },
    { Timestamp: dateTime64(ms), ServiceName: service, SpanId: hexId(8), TraceId: hexId(16) },
  );
}

/**
 * payments: 300 calls in the 5 min before T1, 45 failed first-hand (rate_limit from sdk
 * ThrottlingException) → burn 45/300/(1-0.995) = 30× over 5 m and 1 h: pages.
 * orders: 36 × 100 calls, a batch every 10 minutes over the last 6 h, 1 transient failure each
 * → 1% → 2×: a ticket, no page.
 * search: 1000 calls, 2 failures → 0.4×: inside its SLO, never alerts.
 * Every window an alert fires on holds at least the default 250 events (FAULTLINE_ALERT_MIN_EVENTS),
 * and every service sent something within the last 10 minutes (not stale).
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let m = 1; m <= 5; m++) {
    for (let i = 0; i < 51; i++) rows.push(ok('payments', T1 - m * MIN + i * 100));
    for (let i = 0; i < 9; i++)
      rows.push(
        failed('payments', T1 - m * MIN + 5000 + i * 100, 'rate_limit', 'sdk', 'ThrottlingException'),
      );
  }
  for (let k = 0; k < 36; k++) {
    const at = T1 - (10 * k + 5) * MIN;
    for (let i = 0; i < 99; i++) rows.push(ok('orders', at + i * 100));
    rows.push(failed('orders', at + 20_000, 'transient', 'http', '503'));
  }
  for (let i = 0; i < 998; i++) rows.push(ok('search', T1 - 3 * MIN + i * 10));
  for (let i = 0; i < 2; i++)
    rows.push(failed('search', T1 - 3 * MIN + 20_000 + i, 'transient', 'db', '57P01'));
  return rows;
}

let dir: string;
let store: Store;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T1;

const notices = (status: string) =>
  hook.bodies.map((b) => b.body as AlertNotice & { status: string }).filter((b) => b.status === status);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-alerts-'));
  store = await openStore({ dataDir: dir });
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
    { FAULTLINE_ALERT_INTERVAL_S: '1' },
    { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
  );
  return createAlertEvaluator({ store, config, now: () => clock, post: { baseDelayMs: 20 } });
}

describe('burn-rate alerts', () => {
  let first: ReturnType<typeof evaluator>;

  it('pages a fast burn within two evaluation intervals, naming the burning class', async () => {
    first = evaluator();
    const started = Date.now();
    first.start();
    while (notices('firing').length === 0 && Date.now() - started < 15_000)
      await new Promise((r) => setTimeout(r, 50));
    // Counted in evaluations, not wall time: a loaded machine stretches each one, never their number.
    const { ok, failed } = first.health();
    await first.idle();
    expect(notices('firing').length).toBeGreaterThan(0);
    expect(failed).toBe(0);
    expect(ok).toBeLessThanOrEqual(2);
    const page = notices('firing').find((n) => n.service === 'payments' && n.severity === 'page');
    expect(page?.class).toBe('rate_limit');
    expect((page as unknown as { burnRates: Record<string, number> }).burnRates['5m']).toBeCloseTo(30);
    expect(page?.breakdown.classes).toEqual([{ class: 'rate_limit', failures: 45, share: 1 }]);
    expect(page?.breakdown.top).toEqual({
      class: 'rate_limit',
      source: 'sdk',
      code: 'ThrottlingException',
      failures: 45,
    });
    expect(page?.summary).toContain('100% rate_limit from sdk ThrottlingException (api.stripe.com)');
    // The fixture's calls name server.address api.stripe.com: the dependency that burns.
    expect(page?.breakdown.topDependency).toEqual({ name: 'api.stripe.com', failures: 45 });
    const inAm = (await am.alerts()).filter(
      (a) => a.labels.service === 'payments' && a.labels.severity === 'page',
    );
    expect(inAm).toHaveLength(1);
    expect(inAm[0]?.labels).toMatchObject({ alertname: 'ErrorBudgetBurn', class: 'rate_limit' });
    expect(inAm[0]?.annotations.dashboard).toContain('service=payments');
    expect(inAm[0]?.annotations.description).toContain('top dependency: api.stripe.com (45)');
  });

  it('opens a ticket for a slow burn without paging, and a healthy service never alerts', async () => {
    await first.stop();
    const firing = notices('firing');
    expect(firing.filter((n) => n.service === 'orders').map((n) => n.severity)).toEqual(['ticket']);
    expect(firing.filter((n) => n.service === 'search')).toEqual([]);
    const inAm = await am.alerts();
    expect(inAm.filter((a) => a.labels.service === 'search')).toEqual([]);
    expect(inAm.filter((a) => a.labels.service === 'orders').map((a) => a.labels.severity)).toEqual([
      'ticket',
    ]);
    // Re-sent while firing: one transition on the webhook however many evaluations ran.
    expect(firing.filter((n) => n.service === 'payments' && n.severity === 'page')).toHaveLength(1);
  });

  it('does not re-page after a restart, and resolves when the burn stops', async () => {
    const pagedAt = (await am.alerts()).find(
      (a) => a.labels.service === 'payments' && a.labels.severity === 'page',
    );
    clock = T1 + MIN;
    const second = evaluator();
    await second.evaluate();
    await second.idle();
    expect(notices('firing').filter((n) => n.service === 'payments' && n.severity === 'page')).toHaveLength(
      1,
    );
    const again = (await am.alerts()).find(
      (a) => a.labels.service === 'payments' && a.labels.severity === 'page',
    );
    expect(again?.startsAt).toBe(pagedAt?.startsAt);

    // The burn stops: 60 good calls a minute for 35 minutes. 0× over 5 m and 30 m (300 and 1800
    // calls: judged), so neither page rule holds (6 h alone still burns 45/2400/0.005 = 3.75×: the
    // ticket stays open).
    const rows: TraceRow[] = [];
    for (let m = 0; m < 35; m++)
      for (let i = 0; i < 60; i++) rows.push(ok('payments', T1 + m * MIN + i * 100));
    await insertBatch(store.client, serializeRows(rows));
    clock = T1 + 35 * MIN;
    await second.evaluate();
    await second.idle();
    const resolved = notices('resolved').filter((n) => n.service === 'payments');
    expect(resolved.map((n) => n.severity)).toEqual(['page']);
    expect(second.firing().find((n) => n.service === 'payments')?.severity).toBe('ticket');
    const inAm = (await am.alerts()).find(
      (a) => a.labels.service === 'payments' && a.labels.severity === 'page',
    );
    expect(inAm?.endsAt).toBe(new Date(clock).toISOString());
    // A third process start knows it is resolved: nothing more is sent for it.
    const third = evaluator();
    await third.evaluate();
    await third.idle();
    expect(notices('resolved').filter((n) => n.service === 'payments')).toHaveLength(1);
    expect(notices('firing').filter((n) => n.service === 'payments' && n.severity === 'page')).toHaveLength(
      1,
    );
    // The Alerts page's queries: payments' page fired once and resolved once, across three
    // processes, and each transition reached both receivers.
    const history = await store.runNamed<Record<string, unknown>>('alerts/alert_history', { limit: 100 });
    const paymentsPage = history.rows.filter((r) => r.service === 'payments' && r.severity === 'page');
    expect(paymentsPage.map((r) => r.state)).toEqual(['resolved', 'firing']);
    const deliveries = await store.runNamed<Record<string, unknown>>('alerts/alert_deliveries', {
      limit: 1000,
    });
    const pageKey = paymentsPage[0]!.alert_key;
    const resolvedTo = deliveries.rows.filter((r) => r.alert_key === pageKey && r.state === 'resolved');
    expect(new Set(resolvedTo.map((r) => r.receiver))).toEqual(new Set(['alertmanager', 'webhook']));
    expect(resolvedTo.every((r) => r.ok === true)).toBe(true);
  });
});
