import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForInserted } from '@faultline/collector';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, startFaultline } from './support/faultline-process';
import { sendTimedCalls, type TimedCall } from './support/send-timed-calls';

// Issue 31's Alerts page: `npm start` with the evaluator every second, a minimum of 50 events per
// window and services stale after 120 s, and a webhook on loopback. Before any span arrives, a
// silence for `inventory` is made with the page's form. Then:
//   quiet      20 calls, 1 failed, a moment ago: every window "not enough traffic to judge"
//   inventory  60 calls, 30 failed rate_limit 429, 40 s ago: burns 100× at 99.5%, pages, but the
//              silence withholds it from the webhook; expired with the page's button, it is
//              delivered; sending nothing more, it goes stale ("no data since …") within 2 min.
let app: FaultlineProcess;
let webhook: Server;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const received: { service?: string; status?: string; stale?: boolean }[] = [];
let inventoryLastSeenS = 0;

const pad = (n: number) => String(n).padStart(2, '0');
const utc = (s: number) => {
  const d = new Date(s * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
};

function calls(nowMs: number): TimedCall[] {
  const out: TimedCall[] = [];
  const api = { 'server.address': 'api.example', 'url.full': 'https://api.example/v1' };
  // One second, 40 s back: its minute ends (its last data) between 40 s ago and 20 s ahead, so it
  // fires for at least 80 s before it goes stale, and is stale within 160 s.
  const invAt = Math.floor((nowMs - 40_000) / 1000) * 1000;
  for (let i = 0; i < 60; i++)
    out.push({
      service: 'inventory',
      atMs: invAt + i,
      spanName: 'GET /v1',
      attrs: api,
      source: 'http',
      failure: i % 2 === 0 ? { class: 'rate_limit', code: '429', message: 'slow down' } : undefined,
    });
  inventoryLastSeenS = Math.floor(invAt / 60_000) * 60 + 60;
  for (let i = 0; i < 20; i++)
    out.push({
      service: 'quiet',
      atMs: nowMs - 10_000 + i,
      spanName: 'GET /v1',
      attrs: api,
      source: 'http',
      failure: i === 0 ? { class: 'transient', code: '503', message: 'one bad call' } : undefined,
    });
  return out;
}

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      try {
        received.push(JSON.parse(body));
      } catch {
        // A body the test cannot read counts as nothing received.
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  app = await startFaultline({
    env: {
      FAULTLINE_ALERT_INTERVAL_S: '1',
      FAULTLINE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`,
      FAULTLINE_ALERT_MIN_EVENTS: '50',
      FAULTLINE_ALERT_STALE_AFTER_S: '120',
    },
  });
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((r) => webhook?.close(r));
});

const silenceRow = () => page.locator('[data-testid="silence"][data-service="inventory"]');
const toWebhook = (service: string) => received.filter((r) => r.service === service);

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The Alerts page with its silences form hydrated: before that a click is not handled. */
async function openAlertsReady(): Promise<void> {
  await page.goto(`${app.dashboardUrl}/alerts`);
  await page.locator('[data-testid="silences-panel"][data-ready="true"]').waitFor();
}

describe('alerts on thin evidence, stopped services and silences', () => {
  it('makes a silence with the form, refusing a bad one with the reason', async () => {
    await openAlertsReady();
    await page.getByTestId('silence-author').fill('ana');
    // No matcher: refused by the alerts API's own rule, said on the page.
    await page.getByTestId('silence-reason').fill('INC-42 rate limits at api.example');
    await page.getByTestId('silence-submit').click();
    await expect
      .poll(() => page.getByTestId('silence-error').textContent())
      .toContain('a silence needs at least one matcher');
    await page.getByTestId('silence-service').fill('inventory');
    await page.getByTestId('silence-for').selectOption('1h');
    await page.getByTestId('silence-submit').click();
    await silenceRow().waitFor();
    expect(await silenceRow().getAttribute('data-status')).toBe('active');
    const text = (await silenceRow().textContent()) ?? '';
    expect(text).toContain('service=inventory');
    expect(text).toContain('ana');
    expect(text).toContain('INC-42 rate limits at api.example');
    // The author is remembered in this browser for the next silence.
    await openAlertsReady();
    expect(await page.getByTestId('silence-author').inputValue()).toBe('ana');
  });

  it('refuses a write from another origin, as every dashboard write', async () => {
    const res = await fetch(`${app.dashboardUrl}/api/alerts/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ service: 'inventory', duration: '1h', author: 'x', reason: 'y' }),
    });
    expect(res.status).toBe(403);
    const bad = await fetch(`${app.dashboardUrl}/api/alerts/silences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.dashboardUrl },
      body: JSON.stringify({ service: 'inventory', duration: '45d', author: 'x', reason: 'y' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('at most 30 days');
  });

  it('judges a low-volume service "not enough traffic", pages the burning one but withholds it while silenced', async () => {
    await sendTimedCalls(app.otlpUrl, calls(Date.now()));
    await waitForInserted(app.otlpUrl);
    await until(
      'inventory firing',
      async () => {
        await page.goto(`${app.dashboardUrl}/alerts`);
        return (await page.locator('[data-testid="firing-alert"][data-service="inventory"]').count()) > 0;
      },
      30_000,
    );
    // quiet: each window holds 20 events of the 50 needed: not judged, no burn rate shown.
    const quiet = page.locator('[data-testid="service-verdict"][data-service="quiet"]');
    const windows = await quiet.getByTestId('window-verdict').evaluateAll((tds) =>
      tds.map((td) => ({
        window: td.getAttribute('data-window'),
        verdict: td.getAttribute('data-verdict'),
        events: Number(td.getAttribute('data-events')),
        text: td.textContent,
      })),
    );
    expect(windows.map((w) => w.window)).toEqual(['5m', '30m', '1h', '6h', '3d']);
    for (const w of windows) {
      expect(w).toMatchObject({ verdict: 'insufficient_traffic', events: 20 });
      expect(w.text).toBe('not enough traffic to judge20 of 50 events');
    }
    expect(await quiet.getByTestId('rule-verdict').allTextContents()).toEqual([
      'page 1h/5m: not enough traffic',
      'page 6h/30m: not enough traffic',
      'ticket 3d/6h: not enough traffic',
    ]);
    // inventory: 30 of 60 calls failed against 0.5% allowed: judged, 100× in every window.
    const inventory = page.locator('[data-testid="service-verdict"][data-service="inventory"]');
    const burns = await inventory
      .getByTestId('window-verdict')
      .evaluateAll((tds) => tds.map((td) => `${td.getAttribute('data-verdict')} ${td.textContent}`));
    expect(burns).toEqual(Array(5).fill('judged 100.0×60 events'));
    expect(await page.locator('[data-testid="firing-alert"][data-service="quiet"]').count()).toBe(0);
    // Firing, and said to be silenced: by whom and until when.
    const firing = page.locator('[data-testid="firing-alert"][data-service="inventory"]').first();
    expect(await firing.getByTestId('alert-silenced').textContent()).toMatch(
      /^until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC by ana$/,
    );
    // Silenced: recorded as withheld, nothing on the webhook for inventory (nor for quiet).
    await until(
      'the withheld delivery',
      async () => {
        await page.goto(`${app.dashboardUrl}/alerts`);
        return ((await page.getByTestId('alert-deliveries').textContent()) ?? '').includes(
          'withheld (silenced)',
        );
      },
      15_000,
    );
    expect(toWebhook('inventory')).toEqual([]);
    expect(toWebhook('quiet')).toEqual([]);
  }, 90_000);

  it('delivers the page once the silence is expired with the button', async () => {
    await openAlertsReady();
    await silenceRow().getByTestId('silence-expire').click();
    await expect.poll(() => silenceRow().getAttribute('data-status')).toBe('expired');
    expect(await silenceRow().textContent()).toContain('ended early by ana');
    await until('the page on the webhook', () => toWebhook('inventory').length > 0, 20_000);
    expect(toWebhook('inventory')[0]).toMatchObject({ status: 'firing' });
  }, 40_000);

  it('moves a service that stopped sending to stale, and says "no data since" on every page', async () => {
    const since = `no data since ${utc(inventoryLastSeenS)}`;
    await until(
      'inventory stale',
      async () => {
        await page.goto(`${app.dashboardUrl}/alerts`);
        return (await page.locator('[data-testid="stale-alert"][data-service="inventory"]').count()) > 0;
      },
      150_000,
    );
    expect(await page.locator('[data-testid="firing-alert"][data-service="inventory"]').count()).toBe(0);
    const stale = page.locator('[data-testid="stale-alert"][data-service="inventory"]').first();
    expect(await stale.textContent()).toContain(since);
    const row = page.locator('[data-testid="service-verdict"][data-service="inventory"]');
    expect(await row.getAttribute('data-stale')).toBe('true');
    expect(await row.getByTestId('last-data').textContent()).toBe(since);
    expect(
      await row.getByTestId('rule-verdict').evaluateAll((s) => s.map((x) => x.getAttribute('data-verdict'))),
    ).toEqual(['stale', 'stale', 'stale']);
    // The webhook heard it resolved, as stale.
    await until(
      'the stale resolve',
      () => toWebhook('inventory').some((r) => r.status === 'resolved'),
      15_000,
    );
    for (const path of ['/alerts', '/?range=1h', '/failures?range=1h', '/dependencies?range=1h']) {
      await page.goto(`${app.dashboardUrl}${path}`);
      const note = page.locator('[data-testid="stale-service"][data-service="inventory"]');
      await note.waitFor();
      expect(await note.textContent(), path).toContain(`inventory: no data since ${utc(inventoryLastSeenS)}`);
      expect(Number(await note.getAttribute('data-last-seen'))).toBe(inventoryLastSeenS);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${app.dashboardUrl}/alerts`);
    await page.screenshot({
      path: `${import.meta.dirname}/../test-artifacts/alerts-evidence.png`,
      fullPage: true,
    });
  }, 200_000);
});
