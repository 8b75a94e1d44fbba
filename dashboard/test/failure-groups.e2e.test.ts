import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { FAILURE_GROUP_TRUTH, sendFailureGroups } from './support/send-failure-groups';

// Issue 13's failure groups against known spans (send-failure-groups.ts), read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;

beforeAll(async () => {
  session = await startSeeded(sendFailureGroups);
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

describe('failure groups', () => {
  it('marks a code seen only in the range new, one back after 3 days regressed, with the counts sent', async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    await page.getByTestId('failure-groups').waitFor();
    const groups = await page.getByTestId('failure-group').evaluateAll((rows) =>
      rows.map((r) => ({
        state: r.getAttribute('data-state'),
        service: r.getAttribute('data-service'),
        dependency: r.getAttribute('data-dependency'),
        cls: r.getAttribute('data-class'),
        code: r.getAttribute('data-code'),
        failures: Number(r.getAttribute('data-failures')),
        previous: Number(r.getAttribute('data-previous')),
        versions: (r.querySelectorAll('td')[11]?.textContent ?? '').split(', '),
      })),
    );
    expect(groups).toEqual(
      FAILURE_GROUP_TRUTH.map((t) => ({ service: 'cart', ...t, versions: [...t.versions] })),
    );
    await expect(page.getByTestId('groups-summary').textContent()).resolves.toBe(
      '1 new, 1 regressed, 1 ongoing',
    );
    await expect(page.getByTestId('groups-rule').textContent()).resolves.toContain(
      '24 hours before the range',
    );
    const query = new URL((await page.getByTestId('groups-query').getAttribute('href'))!, app.dashboardUrl)
      .searchParams;
    expect(query.get('query')).toBe('dashboard/failure_groups');
    expect(Number(query.get('p.from')) - Number(query.get('p.lookback_from'))).toBe(7 * 86_400);
  });

  it('links each group to an example request and the Overview filtered to its service', async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    const first = page.getByTestId('failure-group').first();
    const example = await first.getByTestId('group-example').getAttribute('href');
    expect(example).toMatch(/^\/request\?id=groups-422-[01]$/);
    const service = await first.locator('td').nth(1).locator('a').getAttribute('href');
    expect(service).toMatch(/^\/\?.*service=cart/);
    await first.getByTestId('group-example').click();
    await page.getByRole('tree').waitFor();
  });

  it('the nav links to the Failures page', async () => {
    await page.goto(`${app.dashboardUrl}/?range=1h`);
    await expect(page.getByRole('link', { name: 'Failures' }).getAttribute('href')).resolves.toMatch(
      /^\/failures/,
    );
  });
});
