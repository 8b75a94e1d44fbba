import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { alertmanagerPayload } from '../../src/alerts/alertmanager-payload.js';
import { judgeServices } from '../../src/alerts/service-verdicts.js';
import { MIN, minuteOfCalls } from './call-rows.js';
import { startAlertmanager, startReceiver } from './receivers.js';

// Alertmanager judges endsAt by its own clock: a resolve counts there only once its endsAt is past.
// So the controlled clock runs ten minutes behind, and reaches the real current minute when
// inventory goes stale (T1 + 10 min); the re-sends before it keep endsAt in the real future.
const T1 = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;

/**
 * inventory: 60 calls a minute over the 5 minutes before T1, 15 of them failed (transient db
 *   40P01): 25%, 50× in every window (300 calls): a page and a ticket at T1. Then it crashes: its
 *   last span is in the minute before T1, so its data ends at T1.
 * billing: 60 healthy calls a minute from T1 - 5 min to T1 + 12 min: alive throughout.
 * search: 300 healthy calls in the minute T1 - 30 min, then nothing: stopped, never alerting.
 * With the default FAULTLINE_ALERT_STALE_AFTER_S (600), inventory is stale from T1 + 10 min. At
 * T1 + 9 min its 6 h and 30 min windows still hold its 300 calls at 50×, so without staleness the
 * page (6× over 6 h and 30 m) would still fire on data 9 minutes old.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let m = 1; m <= 5; m++)
    rows.push(...minuteOfCalls('inventory', T1 - m * MIN, 45, 15, ['transient', 'db', '40P01']));
  for (let m = -5; m < 12; m++) rows.push(...minuteOfCalls('billing', T1 + m * MIN, 60));
  rows.push(...minuteOfCalls('search', T1 - 30 * MIN, 300));
  return rows;
}

let dir: string;
let store: Store;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T1;

type Delivered = AlertNotice & { stale: boolean; reason: string | null; endsAt: string | null };
const delivered = (service: string, status: string) =>
  hook.bodies.map((b) => b.body as Delivered).filter((n) => n.service === service && n.status === status);

const config = () =>
  resolveAlertConfig(
    { FAULTLINE_ALERT_INTERVAL_S: '1' },
    { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
  );
const evaluator = () =>
  createAlertEvaluator({ store, config: config(), now: () => clock, post: { baseDelayMs: 20 } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-stale-alerts-'));
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

describe('a service that stops sending (FAULTLINE_ALERT_STALE_AFTER_S, default 600 s)', () => {
  const e = { current: null as ReturnType<typeof evaluator> | null };

  it('pages while it burns', async () => {
    e.current = evaluator();
    await e.current.evaluate();
    await e.current.idle();
    expect(
      delivered('inventory', 'firing')
        .map((n) => `${n.severity} ${n.class}`)
        .sort(),
    ).toEqual(['page transient', 'ticket transient']);
  });

  it('keeps firing 9 minutes after its last data, not yet stale', async () => {
    clock = T1 + 9 * MIN;
    const out = await e.current!.evaluate();
    expect(out.filter((n) => n.service === 'inventory').map((n) => `${n.severity} ${n.status}`)).toEqual([
      'page firing',
      'ticket firing',
    ]);
    expect(e.current!.services()!.services.find((s) => s.service === 'inventory')?.stale).toBe(false);
    await e.current!.idle();
    const inAm = (await am.alerts()).filter((a) => a.labels.service === 'inventory');
    expect(inAm.map((a) => a.labels.severity).sort()).toEqual(['page', 'ticket']);
  });

  it('moves its alerts to stale at 10 minutes, resolved at both receivers with “no data since”', async () => {
    clock = T1 + 10 * MIN;
    const out = await e.current!.evaluate();
    await e.current!.idle();
    const reason = `no data since ${new Date(T1).toISOString()}`;
    expect(
      out.filter((n) => n.service === 'inventory').map((n) => `${n.severity} ${n.status} ${n.stale}`),
    ).toEqual(['page resolved true', 'ticket resolved true']);
    expect(e.current!.firing().filter((n) => n.service === 'inventory')).toEqual([]);

    const resolved = delivered('inventory', 'resolved');
    expect(resolved.map((n) => n.severity).sort()).toEqual(['page', 'ticket']);
    for (const n of resolved) {
      expect(n).toMatchObject({ stale: true, reason, endsAt: new Date(clock).toISOString() });
      expect(n.summary).toBe(
        `inventory: stale, ${reason}; ErrorBudgetBurn (${n.severity}) is no longer judged on old data`,
      );
    }
    // Resolved at Alertmanager (its API lists active alerts only), with the reason beside.
    expect((await am.alerts()).filter((a) => a.labels.service === 'inventory')).toEqual([]);
    const sent = alertmanagerPayload(out.filter((n) => n.service === 'inventory')) as {
      endsAt: string;
      annotations: Record<string, string>;
    }[];
    expect(sent.map((a) => [a.endsAt, a.annotations.reason])).toEqual([
      [new Date(clock).toISOString(), reason],
      [new Date(clock).toISOString(), reason],
    ]);
    const deliveries = await store.runNamed<Record<string, unknown>>('alerts/alert_deliveries', {
      limit: 100,
    });
    const staleTo = deliveries.rows.filter(
      (r) => String(r.alert_key).includes('|inventory|') && r.state === 'resolved',
    );
    expect(staleTo.map((r) => `${r.receiver} ${r.ok}`).sort()).toEqual([
      'alertmanager true',
      'alertmanager true',
      'webhook true',
      'webhook true',
    ]);

    // The Alerts page's readings: the transitions are `stale`, the service says when it last sent.
    const history = await store.runNamed<Record<string, unknown>>('alerts/alert_history', { limit: 100 });
    expect(
      history.rows
        .filter((r) => r.service === 'inventory')
        .map((r) => `${r.severity} ${r.state}`)
        .sort(),
    ).toEqual(['page firing', 'page stale', 'ticket firing', 'ticket stale']);
    const states = await store.runNamed<Record<string, unknown>>('alerts/alert_states', {});
    expect(states.rows.filter((r) => r.service === 'inventory').map((r) => r.state)).toEqual([
      'stale',
      'stale',
    ]);
    const inventory = e.current!.services()!.services.find((s) => s.service === 'inventory')!;
    expect(inventory).toMatchObject({ stale: true, staleReason: reason, lastSeenS: T1 / 1000 });
    expect(inventory.rules.map((r) => r.verdict)).toEqual(['stale', 'stale', 'stale']);
  });

  it('says when every service last sent, from the minute rollups', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('alerts/service_last_seen', {
      from: T1 / 1000 - 86_400,
      to: clock / 1000,
    });
    // billing's calls run to the minute T1 + 11 min, which ends at T1 + 12 min (after the clock's
    // T1 + 10 min: the query reads minutes before `to` only, so its last is T1 + 9 min).
    expect(rows.map((r) => [r.service, Number(r.last_seen_s)])).toEqual([
      ['billing', (T1 + 10 * MIN) / 1000],
      ['inventory', T1 / 1000],
      ['search', (T1 - 29 * MIN) / 1000],
    ]);
    const judged = await judgeServices(store, config(), clock);
    expect(judged.services.map((s) => `${s.service} ${s.stale}`)).toEqual([
      'billing false',
      'inventory true',
      'search true',
    ]);
    // search stopped too, with no alert to move: it is stale, and nothing was sent for it.
    expect(hook.bodies.filter((b) => (b.body as AlertNotice).service === 'search')).toEqual([]);
  });

  it('sends nothing more after a restart: a stale alert is neither re-sent nor resolved again', async () => {
    const before = hook.bodies.length;
    clock = T1 + 11 * MIN;
    const again = evaluator();
    const out = await again.evaluate();
    await again.idle();
    expect(out.filter((n) => n.service === 'inventory')).toEqual([]);
    expect(hook.bodies.length).toBe(before);
  });
});
