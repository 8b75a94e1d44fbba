import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The collector's own loopback Alertmanager starter (Debian prometheus-alertmanager, port of its own).
import { startAlertmanager } from '../../collector/test/alerts/receivers';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, startFaultline } from './support/faultline-process';
import { sendFailedCalls } from './support/send-spans';

// `npm start` with the alert evaluator on a 1 s interval, a webhook receiver on loopback and a
// rules file (the service's SLO set to 99%, one class rule): a service whose 12 outbound calls all
// fail with rate_limit from sdk burns its 99% budget at 100× over every window, so it pages; the
// Alerts page shows it firing with the class that burns, its burn-rate chart peaking at 100×
// against the rules' factors, the rules as configured, its transition in the history, and the
// webhook's delivery.
let app: FaultlineProcess;
let webhook: Server;
let am: Awaited<ReturnType<typeof startAlertmanager>>;
const received: { status?: string; service?: string; severity?: string }[] = [];
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
const SERVICE = `alerting-${process.pid}`;
const rulesDir = mkdtempSync(join(tmpdir(), 'faultline-alert-rules-'));
const RULES = `services:
  ${SERVICE}: { slo: 99 }
rules:
  - kind: class_rate
    class: rate_limit
    source: sdk
    per_minute: 500
`;

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      try {
        const parsed = JSON.parse(body) as { alerts?: typeof received } & (typeof received)[number];
        received.push(...(parsed.alerts ?? [parsed]));
      } catch {
        // A body the test cannot read counts as nothing received.
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
  writeFileSync(join(rulesDir, 'rules.yaml'), RULES);
  am = await startAlertmanager();
  const port = (webhook.address() as AddressInfo).port;
  app = await startFaultline({
    env: {
      FAULTLINE_ALERT_INTERVAL_S: '1',
      // A path and a query standing for a secret token: the page names the receiver's origin only.
      FAULTLINE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hook/T0SECRET?token=s3cr3t`,
      FAULTLINE_ALERT_RULES: join(rulesDir, 'rules.yaml'),
      FAULTLINE_ALERTMANAGER_URL: am.url,
      // The page is the subject here, not the evidence threshold (collector/test/alerts/
      // thin-evidence.test.ts): 12 calls are judged, as a service with traffic would be.
      FAULTLINE_ALERT_MIN_EVENTS: '1',
    },
  });
  await sendFailedCalls(
    app.otlpUrl,
    Array.from({ length: 12 }, (_, i) => ({
      service: SERVICE,
      class: 'rate_limit',
      source: 'sdk',
      code: 'ThrottlingException',
      correlationId: `${SERVICE}-${i}`,
    })),
  );
  await waitForInserted(app.otlpUrl);
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise((r) => webhook?.close(r));
  await am?.close();
  rmSync(rulesDir, { recursive: true, force: true });
});

describe('alerts page', () => {
  it('a burning service pages through the webhook, and the page shows it firing with its class', async () => {
    const deadline = Date.now() + 30_000;
    while (!JSON.stringify(received).includes(SERVICE) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(JSON.stringify(received)).toContain(SERVICE);
    // …and through a real Alertmanager, labelled with the burning class, linking to the dashboard.
    let inAm: Awaited<ReturnType<typeof am.alerts>> = [];
    while (Date.now() < deadline) {
      inAm = (await am.alerts()).filter((a) => a.labels.service === SERVICE && a.labels.severity === 'page');
      if (inAm.length > 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(inAm.map((a) => a.labels)).toEqual([
      { alertname: 'ErrorBudgetBurn', service: SERVICE, severity: 'page', class: 'rate_limit' },
    ]);
    expect(inAm[0]!.annotations.summary).toContain('100% rate_limit from sdk ThrottlingException');
    expect(inAm[0]!.annotations.dashboard).toMatch(new RegExp(`^${app.dashboardUrl}/\\?service=${SERVICE}&`));

    await page.goto(`${app.dashboardUrl}/alerts`);
    // 200× burns past every rule: the page and the ticket both fire.
    const rows = page.locator(`[data-testid="firing-alert"][data-service="${SERVICE}"]`);
    await rows.first().waitFor();
    expect((await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-severity')))).sort()).toEqual([
      'page',
      'ticket',
    ]);
    const row = page.locator(`[data-testid="firing-alert"][data-service="${SERVICE}"][data-severity="page"]`);
    expect(await row.textContent()).toContain('rate_limit');
    // Its link opens the Overview filtered to the service.
    expect(await row.locator('a').getAttribute('href')).toMatch(
      new RegExp(`^/\\?service=${SERVICE}&from=\\d+&to=\\d+`),
    );
    expect(
      await page.locator('[data-testid="alert-transition"][data-state="firing"]').count(),
    ).toBeGreaterThan(0);
    const deliveries = (await page.getByTestId('alert-deliveries').textContent()) ?? '';
    expect(deliveries).toContain('webhook');
    expect(deliveries).toContain('delivered');
    expect(await page.getByTestId('alert-rules').textContent()).toContain('14.4×');
    // The rules as configured: the service's own SLO, the class rule, the receiver without its secret.
    const settings = (await page.getByTestId('alert-settings').textContent()) ?? '';
    expect(settings).toContain(`${SERVICE} 99%`);
    expect(settings).toContain('Evaluated every 1 s');
    expect(settings).not.toMatch(/T0SECRET|s3cr3t/);
    expect(await page.getByTestId('alert-class-rules').textContent()).toContain(
      'rate_limit failures from sdk above 500/min over 5m',
    );
    // Its burn-rate chart: every call failed against a 99% SLO is a 100× burn, drawn against the factors.
    const chart = page.locator(`[data-testid="burn-chart"][data-service="${SERVICE}"]`);
    expect(await chart.getAttribute('data-peak-burn')).toBe('100.0');
    expect(await chart.locator('.recharts-reference-line').count()).toBe(3);
    expect(await chart.locator('.recharts-line').count()).toBe(2);
    expect(await row.textContent()).toContain('ErrorBudgetBurn');
    // The Overview marks the service with its firing page.
    await page.goto(`${app.dashboardUrl}/?sli=calls`);
    const mark = page.locator(
      `[data-testid="budget-table"] tr[data-service="${SERVICE}"] [data-testid="firing-mark"]`,
    );
    await mark.waitFor();
    expect(await mark.textContent()).toBe('● page firing');
    expect(await page.locator('[data-testid="firing-mark"]').count()).toBe(1);
  }, 60_000);
});
