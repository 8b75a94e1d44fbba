import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { sendFailureGroups } from './support/send-failure-groups';

// Issue 13's navigation: services and correlation ids shown in tables link to the view about them.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;

beforeAll(async () => {
  session = await startSeeded(sendFailureGroups);
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

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
  it('links the known columns of SQL console results: requests, spans, services, dependencies', async () => {
    await page.goto(`${app.dashboardUrl}/sql`);
    await page
      .getByTestId('sql-editor')
      .fill(
        "SELECT ServiceName, TraceId, SpanId, correlation_id, dependency, code FROM failures WHERE code = '422' ORDER BY Timestamp LIMIT 1",
      );
    await page.getByTestId('run-sql').click();
    const cells = page.getByTestId('sql-table').locator('tbody tr').first().locator('td');
    await cells.first().waitFor();
    const texts = await cells.allTextContents();
    const hrefs = await cells.evaluateAll((tds) =>
      tds.map((td) => td.querySelector('a')?.getAttribute('href') ?? null),
    );
    const [service, trace, span, correlation, dependency] = texts;
    expect(hrefs).toEqual([
      `/?service=${service}`,
      `/request?id=${trace}`,
      `/request?id=${trace}&span=${span}`,
      `/request?id=${correlation}`,
      `/dependencies?dependency=${encodeURIComponent(dependency!).replace(/%20/g, '+')}&service=${service}`,
      null,
    ]);
    expect(service).toBe('cart');
    expect(correlation).toMatch(/^groups-422-[01]$/);
    await cells.nth(3).locator('a').click();
    await page.getByRole('tree').waitFor();
  });
});
