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
        versions: (r.querySelector('[data-testid="group-versions"]')?.textContent ?? '').split(', '),
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

  it('links each group to an example request, its failing span selected, and the Overview filtered to its service', async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    const first = page.getByTestId('failure-group').first();
    const example = await first.getByTestId('group-example').getAttribute('href');
    expect(example).toMatch(/^\/request\?id=groups-422-[01]&span=[0-9a-f]{16}$/);
    const service = await first.locator('td').nth(1).locator('a').getAttribute('href');
    expect(service).toMatch(/^\/\?.*service=cart/);
    await first.getByTestId('group-example').click();
    await page.getByRole('tree').waitFor();
    const span = new URL(page.url()).searchParams.get('span');
    expect(await page.getByTestId('span-panel').getAttribute('data-span-id')).toBe(span);
    expect(await page.locator('[role="treeitem"][aria-selected="true"]').getAttribute('data-span-id')).toBe(
      span,
    );
    // The group's own failure: the 422 it counts.
    expect(
      await page.getByTestId('span-panel-envelope').locator('tr[data-key="code"] td').textContent(),
    ).toBe('422');
  });

  it('narrows to one code, to failures naming no dependency, to outbound calls, to what the budget counts', async () => {
    const total = async (query: string) => {
      await page.goto(`${app.dashboardUrl}/failures?range=1h&${query}`);
      return Number(await page.getByTestId('groups-total').getAttribute('data-failures'));
    };
    // The scenario's 7 first-hand failures of the range, all on outbound calls that name a dependency.
    expect(await total('')).toBe(7);
    expect(await total('code=429')).toBe(2);
    expect(await total('code=429&dependency=postgresql%20cart')).toBe(0);
    expect(await total('none=dependency')).toBe(0);
    expect(await total('outbound=1')).toBe(7);
    // Caller faults (the two 422s) left out, or only them.
    expect(await total('counted=yes&caller_faults=exclude')).toBe(5);
    expect(await total('counted=no&caller_faults=exclude')).toBe(2);
    expect(await total('counted=no&caller_faults=include')).toBe(0);
    await expect(page.getByTestId('failure-filter-counted').textContent()).resolves.toContain(
      'caller faults only',
    );
    // Each filter says what it keeps and lifts with one click.
    await page.goto(`${app.dashboardUrl}/failures?range=1h&code=429`);
    await page.getByTestId('failure-filter-code').getByRole('link').click();
    await page.waitForURL((u) => !u.searchParams.has('code'));
    expect(Number(await page.getByTestId('groups-total').getAttribute('data-failures'))).toBe(7);
    // A bad value is refused with the fix.
    await page.goto(`${app.dashboardUrl}/failures?range=1h&none=everything`);
    await expect(page.getByTestId('param-error').textContent()).resolves.toContain('"none"');
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
    await expect(page.getByTestId('failure-filter-version').textContent()).resolves.toContain('2.0.0');
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
    await expect(
      page.getByRole('link', { name: 'Failures', exact: true }).getAttribute('href'),
    ).resolves.toMatch(/^\/failures/);
  });
});
