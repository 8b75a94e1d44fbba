import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { type AlertEvaluator, createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { type AlertsServer, startAlertsServer } from '../../src/alerts/alerts-server.js';
import { createSilenceBook } from '../../src/alerts/silence-book.js';
import { MIN, minuteOfCalls } from './call-rows.js';
import { startAlertmanager, startReceiver } from './receivers.js';

// The real current minute: a silence starting at T1 is in force at Alertmanager at once (its own
// clock), and the firing alerts' endsAt (T1 + 3 min and later) are still ahead of it.
const T1 = Math.floor(Date.now() / MIN) * MIN;

/**
 * payments: 60 calls a minute from T1 - 5 min to T1 + 40 min, 9 of them failed (rate_limit from sdk
 *   ThrottlingException): 15%, 30× over 300 calls in every window from T1 on: a page and a ticket.
 * orders: 60 calls a minute from T1 + 5 min, 30 of them failed (transient http 503): 50%, 100×:
 *   a page and a ticket from T1 + 10 min, when its 5-minute window holds 300 calls.
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let m = -5; m < 40; m++)
    rows.push(
      ...minuteOfCalls('payments', T1 + m * MIN, 51, 9, ['rate_limit', 'sdk', 'ThrottlingException']),
    );
  for (let m = 5; m < 40; m++) rows.push(...minuteOfCalls('orders', T1 + m * MIN, 30, 30));
  return rows;
}

interface SilenceBody {
  id: string;
  service: string;
  class: string;
  alertname: string;
  startsAt: string;
  endsAt: string;
  author: string;
  reason: string;
  status: string;
  expiredBy: string;
  alertmanager: { id: string; state: string; error: string };
}
interface AmAlert {
  labels: Record<string, string>;
  status: { state: string; silencedBy: string[] };
}
interface AmSilence {
  id: string;
  matchers: { name: string; value: string; isRegex: boolean; isEqual: boolean }[];
  createdBy: string;
  comment: string;
  status: { state: string };
}

let dir: string;
let store: Store;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T1;
let e: AlertEvaluator;
let api: AlertsServer;

const delivered = (service: string, status = 'firing') =>
  hook.bodies
    .map((b) => b.body as AlertNotice & { startsAt: string })
    .filter((n) => n.service === service && n.status === status);
const evaluator = () =>
  createAlertEvaluator({
    store,
    config: resolveAlertConfig(
      { FAULTLINE_ALERT_INTERVAL_S: '1' },
      { alertmanagerUrl: am.url, webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
    ),
    now: () => clock,
    post: { baseDelayMs: 20 },
  });
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${api.url}/api/alerts/silences`, { method: 'POST', headers, body: JSON.stringify(body) });
const evaluate = async (at: number, with_ = e) => {
  clock = at;
  await with_.evaluate();
  await with_.idle();
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-silences-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
  am = await startAlertmanager();
  hook = await startReceiver(() => ({ status: 200 }));
  e = evaluator();
  api = await startAlertsServer({ evaluator: e, intervalS: 1, port: 0, now: () => clock });
});

afterAll(async () => {
  await api?.close();
  await e?.stop();
  await am?.close();
  await hook?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('silences: stored in ClickHouse, honoured by delivery, mirrored to Alertmanager', () => {
  let stripe: SilenceBody;

  it('creates a silence through the alerts API and mirrors it to Alertmanager', async () => {
    const res = await post({
      service: 'payments',
      class: 'rate_limit',
      duration: '30m',
      author: 'ana',
      reason: 'Stripe incident INC-42',
    });
    expect(res.status).toBe(201);
    stripe = (await res.json()) as SilenceBody;
    expect(res.headers.get('location')).toBe(`/api/alerts/silences/${stripe.id}`);
    expect(stripe).toMatchObject({
      service: 'payments',
      class: 'rate_limit',
      alertname: '',
      startsAt: new Date(T1).toISOString(),
      endsAt: new Date(T1 + 30 * MIN).toISOString(),
      author: 'ana',
      reason: 'Stripe incident INC-42',
      status: 'active',
      alertmanager: { state: 'active', error: '' },
    });
    const mirrored = (await (
      await fetch(`${am.url}/api/v2/silence/${stripe.alertmanager.id}`)
    ).json()) as AmSilence;
    expect(mirrored.matchers).toEqual([
      { name: 'service', value: 'payments', isRegex: false, isEqual: true },
      { name: 'class', value: 'rate_limit', isRegex: false, isEqual: true },
    ]);
    expect(mirrored).toMatchObject({
      createdBy: 'ana',
      comment: 'Stripe incident INC-42',
      status: { state: 'active' },
    });
    const listed = (await (await fetch(`${api.url}/api/alerts/silences`)).json()) as {
      silences: SilenceBody[];
    };
    expect(listed.silences.map((s) => `${s.id} ${s.status}`)).toEqual([`${stripe.id} active`]);
  });

  it('withholds the page it matches from the webhook, while Alertmanager shows it silenced', async () => {
    await evaluate(T1);
    expect(
      e
        .firing()
        .map((n) => `${n.service} ${n.severity}`)
        .sort(),
    ).toEqual(['payments page', 'payments ticket']);
    expect(delivered('payments')).toEqual([]);
    const inAm = ((await am.alerts()) as unknown as AmAlert[]).filter((a) => a.labels.service === 'payments');
    expect(inAm.map((a) => [a.labels.severity, a.status.state, a.status.silencedBy])).toEqual(
      expect.arrayContaining([
        ['page', 'suppressed', [stripe.alertmanager.id]],
        ['ticket', 'suppressed', [stripe.alertmanager.id]],
      ]),
    );
    const deliveries = await store.runNamed<Record<string, unknown>>('alerts/alert_deliveries', {
      limit: 100,
    });
    const withheld = deliveries.rows.filter((r) => r.receiver === 'webhook' && r.state === 'silenced');
    expect(withheld).toHaveLength(2);
    for (const r of withheld)
      expect(r.error).toBe(
        `silenced by ${stripe.id} until ${new Date(T1 + 30 * MIN).toISOString()} (ana: Stripe incident INC-42)`,
      );
    await evaluate(T1 + MIN);
    expect(delivered('payments')).toEqual([]);
  });

  it('delivers it once the silence is expired early, and expires the mirror too', async () => {
    clock = T1 + 90_000;
    const res = await fetch(`${api.url}/api/alerts/silences/${stripe.id}?author=bo`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: stripe.id,
      status: 'expired',
      expiredBy: 'bo',
      endsAt: new Date(T1 + 90_000).toISOString(),
      alertmanager: { id: stripe.alertmanager.id, state: 'expired', error: '' },
    });
    const mirrored = (await (
      await fetch(`${am.url}/api/v2/silence/${stripe.alertmanager.id}`)
    ).json()) as AmSilence;
    expect(mirrored.status.state).toBe('expired');
    await evaluate(T1 + 2 * MIN);
    const now = delivered('payments');
    expect(now.map((n) => `${n.severity} ${n.class} ${n.startsAt}`).sort()).toEqual([
      `page rate_limit ${new Date(T1).toISOString()}`,
      `ticket rate_limit ${new Date(T1).toISOString()}`,
    ]);
    await evaluate(T1 + 3 * MIN);
    expect(delivered('payments')).toHaveLength(2);
  });

  it('withholds a new page until its silence ends, across a restart, then delivers it once', async () => {
    const res = await post({
      service: 'orders',
      endsAt: new Date(T1 + 15 * MIN).toISOString(),
      author: 'cy',
      reason: 'deploying the fix for the 503s',
    });
    expect(res.status).toBe(201);
    const fix = (await res.json()) as SilenceBody;
    expect(fix).toMatchObject({ startsAt: new Date(T1 + 3 * MIN).toISOString(), status: 'active' });
    await evaluate(T1 + 10 * MIN);
    expect(
      e
        .firing()
        .filter((n) => n.service === 'orders')
        .map((n) => n.severity)
        .sort(),
    ).toEqual(['page', 'ticket']);
    expect(delivered('orders')).toEqual([]);
    // A restart while it is withheld: the new evaluator knows from alert_deliveries.
    const restarted = evaluator();
    await evaluate(T1 + 12 * MIN, restarted);
    expect(delivered('orders')).toEqual([]);
    await evaluate(T1 + 15 * MIN, restarted);
    expect(
      delivered('orders')
        .map((n) => `${n.severity} ${n.class} ${n.startsAt}`)
        .sort(),
    ).toEqual([
      `page transient ${new Date(T1 + 10 * MIN).toISOString()}`,
      `ticket transient ${new Date(T1 + 10 * MIN).toISOString()}`,
    ]);
    await evaluate(T1 + 16 * MIN, restarted);
    expect(delivered('orders')).toHaveLength(2);
    const all = (await (
      await fetch(`${api.url}/api/alerts/silences?since=${new Date(T1).toISOString()}`)
    ).json()) as {
      silences: SilenceBody[];
    };
    expect(all.silences.map((s) => `${s.service} ${s.status} ${s.author}`)).toEqual([
      'orders expired cy',
      'payments expired ana',
    ]);
  });
});

describe('Alertmanager away', () => {
  it('keeps the silence and its error, and mirrors it at a later evaluation', async () => {
    const spec = {
      service: 'search',
      class: '',
      alertname: '',
      startsAtMs: clock,
      endsAtMs: clock + 10 * MIN,
      author: 'dee',
      reason: 'reindexing',
    };
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    const away = createSilenceBook({ store, alertmanagerUrl: 'http://127.0.0.1:9', now: () => clock });
    const kept = await away.create(spec);
    expect(kept).toMatchObject({ status: 'active', alertmanagerId: '', alertmanagerState: '' });
    expect(kept.mirrorError).toMatch(/^POST http:\/\/127\.0\.0\.1:9\/api\/v2\/silences: /);
    // The evaluator's book, on the real Alertmanager, catches up.
    const back = createSilenceBook({ store, alertmanagerUrl: am.url, now: () => clock });
    await back.syncAlertmanager();
    const now = (await back.list()).find((x) => x.id === kept.id)!;
    expect(now).toMatchObject({ alertmanagerState: 'active', mirrorError: '' });
    const mirrored = (await (
      await fetch(`${am.url}/api/v2/silence/${now.alertmanagerId}`)
    ).json()) as AmSilence;
    expect(mirrored).toMatchObject({ createdBy: 'dee', comment: 'reindexing' });
    await back.expire(kept.id, 'dee');
  });
});

describe('the alerts API refuses what it cannot honour, saying why', () => {
  const refused = async (body: unknown) => {
    const res = await post(body);
    return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
  };
  const ok = { service: 'payments', duration: '1h', author: 'ana', reason: 'known' };

  it('validates a silence field by field', async () => {
    expect(await refused({ duration: '1h', author: 'ana', reason: 'x' })).toEqual({
      status: 400,
      detail: expect.stringContaining(
        'a silence needs at least one matcher: give service, class or alertname',
      ),
    });
    expect(await refused({ ...ok, class: 'timeout' })).toEqual({
      status: 400,
      detail:
        'class is "timeout": give one of validation, authentication, rate_limit, transient, permanent, unclassified.',
    });
    expect((await refused({ ...ok, alertname: 'no spaces' })).detail).toMatch(
      /^alertname is "no spaces": give an alert name/,
    );
    expect((await refused({ ...ok, endsAt: new Date(clock + MIN).toISOString() })).detail).toBe(
      'give the silence an end: either endsAt (an ISO 8601 time) or duration (e.g. "1h"), not both.',
    );
    expect((await refused({ ...ok, duration: undefined })).detail).toMatch(/^give the silence an end/);
    expect((await refused({ ...ok, duration: 'two weeks' })).detail).toBe(
      'duration is "two weeks": give a number and a unit (s, m, h or d), e.g. "90m" or "1h".',
    );
    expect((await refused({ ...ok, duration: '31d' })).detail).toMatch(/^a silence lasts at most 30 days/);
    expect(
      (await refused({ ...ok, duration: undefined, endsAt: new Date(clock - MIN).toISOString() })).detail,
    ).toMatch(/already past: give an end in the future\.$/);
    expect((await refused({ ...ok, duration: undefined, endsAt: 'tomorrow' })).detail).toBe(
      'endsAt is "tomorrow": give an ISO 8601 time with its zone, e.g. 2026-03-01T18:30:00Z.',
    );
    expect((await refused({ ...ok, author: '' })).detail).toMatch(/^author is missing: give who silences/);
    expect((await refused({ ...ok, reason: undefined })).detail).toMatch(/^reason is missing: give why/);
    expect((await refused({ ...ok, severity: 'page' })).detail).toBe(
      'severity is not a field of a silence: its fields are service, class, alertname, startsAt, endsAt, duration, author, reason.',
    );
    expect((await refused([ok])).detail).toMatch(/^the body is not a JSON object/);
  });

  it('refuses what is not JSON, unknown silences, routes and methods', async () => {
    const form = await post(ok, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    const garbled = await fetch(`${api.url}/api/alerts/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"service":',
    });
    expect(garbled.status).toBe(400);
    const missing = await fetch(`${api.url}/api/alerts/silences/nope`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toBe(
      'no silence nope: list them with GET /api/alerts/silences',
    );
    const put = await fetch(`${api.url}/api/alerts/silences`, { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
    expect((await fetch(`${api.url}/api/alerts/nothing`)).status).toBe(404);
    expect((await fetch(`${api.url}/api/alerts/silences?since=yesterday`)).status).toBe(400);
  });

  it('beyond loopback, serves only requests bearing the ingest token, and never without one', async () => {
    await expect(startAlertsServer({ evaluator: e, intervalS: 1, port: 0, host: '0.0.0.0' })).rejects.toThrow(
      /beyond loopback: set FAULTLINE_INGEST_TOKEN so \/metrics and the alerts API need it/,
    );
    const token = 'silences-test-token-0123456789';
    const open = await startAlertsServer({
      evaluator: e,
      intervalS: 1,
      port: 0,
      host: '0.0.0.0',
      token,
      now: () => clock,
    });
    try {
      const url = `http://127.0.0.1:${open.port}/api/alerts/silences`;
      const anonymous = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ok),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(
        401,
      );
      expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${open.port}/api/alerts/services`)).status).toBe(401);
    } finally {
      await open.close();
    }
  });
});
