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

  it('shows what is new since the range start in one click, and in one version in one more', async () => {
    const codes = () =>
      page.getByTestId('failure-group').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    await page.getByTestId('state-new').click();
    await page.waitForURL(/state=new/);
    expect(await codes()).toEqual(['422']);
    await page.getByTestId('state-regressed').click();
    await page.waitForURL(/state=regressed/);
    expect(await codes()).toEqual(['40P01']);
    // Every group here was seen in 2.0.0; its chip keeps the new ones of that release.
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    await page.getByTestId('group-version').first().click();
    await page.waitForURL(/version=2\.0\.0/);
    expect(await codes()).toEqual(['422']);
    await expect(page.getByTestId('version-filter').textContent()).resolves.toContain('2.0.0');
    await page.goto(`${app.dashboardUrl}/failures?range=1h&state=new&version=1.0.0`);
    expect(await codes()).toEqual([]);
  });

  it('narrows by class and by dependency, and links a group’s dependency to its edge', async () => {
    const codes = () =>
      page.getByTestId('failure-group').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));
    await page.goto(`${app.dashboardUrl}/failures?range=1h&class=transient`);
    expect(await codes()).toEqual(['40P01']);
    await page.goto(
      `${app.dashboardUrl}/failures?range=1h&dependency=${encodeURIComponent('api.pay.example')}`,
    );
    expect((await codes()).sort()).toEqual(['422', '429']);
    const edge = await page
      .getByTestId('failure-group')
      .first()
      .locator('td')
      .nth(2)
      .locator('a')
      .getAttribute('href');
    const target = new URL(edge!, app.dashboardUrl);
    expect(target.pathname).toBe('/dependencies');
    expect(target.searchParams.get('service')).toBe('cart');
    expect(target.searchParams.get('dependency')).toBe('api.pay.example');
  });

  it('the nav links to the Failures page', async () => {
    await page.goto(`${app.dashboardUrl}/?range=1h`);
    await expect(page.getByRole('link', { name: 'Failures' }).getAttribute('href')).resolves.toMatch(
      /^\/failures/,
    );
  });
});
