import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, startFaultline } from './support/faultline-process';
import { sendFailureGroups } from './support/send-failure-groups';

// Issue 13's navigation: services and correlation ids shown in tables link to the view about them.
let app: FaultlineProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;

beforeAll(async () => {
  app = await startFaultline();
  await sendFailureGroups(app.otlpUrl);
  await waitForInserted(app.otlpUrl);
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('table links', () => {
  it('top codes link each service to the Overview filtered to it, the range kept', async () => {
    await page.goto(`${app.dashboardUrl}/?range=1h`);
    const href = await page
      .getByTestId('top-code')
      .first()
      .locator('td')
      .first()
      .locator('a')
      .getAttribute('href');
    expect(href).toMatch(/^\/\?.*service=cart/);
    expect(href).toContain('range=1h');
    await page.getByTestId('top-code').first().locator('td').first().locator('a').click();
    await page.waitForURL(/service=cart/);
    await expect(page.getByTestId('top-code').evaluateAll((rows) => rows.length)).resolves.toBe(3);
  });

  it('recent workflows link the correlation id to its request and each service to the Overview', async () => {
    await page.goto(`${app.dashboardUrl}/workflows?range=1h`);
    const row = page.getByTestId('recent-workflows').locator('tbody tr').first();
    await row.waitFor();
    const links = await row
      .locator('a')
      .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href') ?? '']));
    expect(links[0]![1]).toMatch(/^\/request\?id=groups-/);
    const serviceLinks = links.filter(([text]) => text === 'cart').map(([, href]) => href);
    expect(serviceLinks.length).toBeGreaterThanOrEqual(2); // services and first failure
    for (const href of serviceLinks) expect(href).toMatch(/^\/\?.*service=cart/);
  });
});
