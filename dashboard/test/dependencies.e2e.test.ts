import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, startFaultline } from './support/faultline-process';
import { DEPENDENCY_TRUTH, sendDependencyCalls } from './support/send-dependency-calls';

// Issue 13's Dependencies page against known calls (send-dependency-calls.ts), read in Chromium.
let app: FaultlineProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;

beforeAll(async () => {
  app = await startFaultline();
  await sendDependencyCalls(app.otlpUrl);
  await waitForInserted(app.otlpUrl);
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('dependencies', () => {
  it('lists each service → dependency edge with the ground truth, most failures first', async () => {
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    await page.getByTestId('dependencies').waitFor();
    const edges = await page.getByTestId('dependency-edge').evaluateAll((rows) =>
      rows.map((r) => ({
        service: r.getAttribute('data-service'),
        dependency: r.getAttribute('data-dependency'),
        calls: Number(r.getAttribute('data-calls')),
        failures: Number(r.getAttribute('data-failures')),
        classes: [...r.querySelectorAll('td[data-class]')]
          .filter((td) => td.textContent !== '')
          .map((td) => td.getAttribute('data-class')),
      })),
    );
    expect(edges).toEqual(
      [...DEPENDENCY_TRUTH]
        .sort((a, b) => b.failures - a.failures || b.calls - a.calls)
        .map((t) => ({
          service: 'shop',
          dependency: t.dependency,
          calls: t.calls,
          failures: t.failures,
          classes: t.cls ? [t.cls] : [],
        })),
    );
  });

  it('links each edge to the Overview filtered to its service', async () => {
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    const href = await page.getByTestId('dependency-edge').first().locator('a').getAttribute('href');
    expect(href).toMatch(/^\/\?.*service=shop/);
    expect(href).toContain('range=1h');
  });
});
