import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { layoutFaults } from './support/layout-faults';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { LINK_TRUTH, sendNumberLinks } from './support/send-number-links';
import { namedQuery } from './support/sql-api';

// Issue 30, the rest of "every number is a link to exactly the rows it counts": the Retries and
// Workflows pages' figures and the Overview's calls. Each is clicked in Chromium at 1280, 1440 and
// 1920 px and the view it opens must total the number clicked, which is the hand count of
// send-number-links.ts (sampled traces weighted 2 and 4, an exact in-process count beside stored
// spans). Then the changed pages are measured: no word broken mid-word, no page wider than the window.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const WIDTHS = [1280, 1440, 1920];
const BASE = 'range=1h&sli=calls&caller_faults=exclude';
const SHOTS = join(tmpdir(), 'faultline-number-links');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  session = await startSeeded(sendNumberLinks);
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

async function open(width: number, path: string, query = BASE): Promise<void> {
  await page.setViewportSize({ width, height: 1000 });
  await page.goto(`${app.dashboardUrl}${path}?${query}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

const count = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

/**
 * On the SQL console a link opened: runs the named query it selected and reads its result, the
 * sum of `column` over the rows and, where the query gives one, its `total` column.
 */
async function consoleTotals(query: string, column: string): Promise<{ sum: number; total?: number }> {
  await page.waitForURL((u) => u.pathname === '/sql' && u.searchParams.get('query') === query);
  await page.getByTestId('run-named').click();
  const table = page.getByTestId('sql-table');
  await table.waitFor();
  const { columns, rows } = await table.evaluate((t) => ({
    columns: [...t.querySelectorAll('thead th')].map((th) => th.textContent ?? ''),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    ),
  }));
  expect(await page.getByTestId('sql-row-count').textContent()).toBe(String(rows.length));
  const at = columns.indexOf(column);
  expect(at, `${query} has a ${column} column`).toBeGreaterThanOrEqual(0);
  const sum = rows.reduce((s, r) => s + Number(r[at]), 0);
  const totalAt = columns.indexOf('total');
  // No rows (a count of 0): nothing to carry a total.
  if (totalAt < 0 || rows.length === 0) return { sum };
  const totals = new Set(rows.map((r) => Number(r[totalAt])));
  expect(totals.size, `${query}: one total on every row`).toBe(1);
  return { sum, total: [...totals][0] };
}

/** Clicks a shown number that opens a named query; its rows must add up to the number, the truth. */
async function followToConsole(
  link: Locator,
  expected: number,
  query: string,
  column: string,
  what: string,
): Promise<void> {
  expect(count(await link.textContent()), `${what}: the number shown`).toBe(expected);
  await link.click();
  const got = await consoleTotals(query, column);
  expect(got.sum, `${what}: the rows it opens add up to`).toBe(expected);
  if (got.total !== undefined) expect(got.total, `${what}: the total column`).toBe(expected);
}

/** Clicks a shown number that opens the Workflows list; the list's total must read the number. */
async function followToList(link: Locator, expected: number, what: string): Promise<URLSearchParams> {
  expect(count(await link.textContent()), `${what}: the number shown`).toBe(expected);
  await link.click();
  await page.waitForURL((u) => u.pathname === '/workflows' && u.hash === '#recent-title');
  const total = page.getByTestId('workflows-matching-total');
  await total.waitFor();
  expect(count(await total.textContent()), `${what}: the total of the list it opens`).toBe(expected);
  return new URL(page.url()).searchParams;
}

describe.each(WIDTHS)('at %i px', (width) => {
  it('opens the calls_1m rows behind the Retries figures', async () => {
    const t = LINK_TRUTH.retries;
    for (const [id, expected] of [
      ['retries-total', t.total],
      ['retries-failed', t.failedAgain],
      ['misrouted-count', t.misrouted],
    ] as const) {
      await open(width, '/retries');
      await followToConsole(
        page.getByTestId(id).locator('a'),
        expected,
        'dashboard/retries_counted',
        'counted',
        id,
      );
    }
  });

  it('opens the retries a by-class count counts, and the misrouted retries of a group', async () => {
    for (const [cls, truth] of Object.entries(LINK_TRUTH.retries.byClass)) {
      const row = () => page.locator(`tr[data-testid="retry-class-row"][data-after="${cls}"]`);
      await open(width, '/retries');
      await followToConsole(
        row().getByTestId('retry-class-retries'),
        truth.retries,
        'dashboard/retries_listed',
        'weight',
        `${cls} retries`,
      );
      await open(width, '/retries');
      await followToConsole(
        row().getByTestId('retry-class-succeeded'),
        truth.succeeded,
        'dashboard/retries_listed',
        'weight',
        `${cls} succeeded`,
      );
    }
    const groups = Object.entries(LINK_TRUTH.retries.misroutedGroups);
    await open(width, '/retries');
    expect(await page.getByTestId('misrouted-row').count()).toBe(groups.length);
    for (const [key, wasted] of groups) {
      await open(width, '/retries');
      await followToConsole(
        page.getByTestId('misrouted-row').first().getByTestId('misrouted-wasted'),
        wasted,
        'dashboard/retries_misrouted_listed',
        'weight',
        key,
      );
      const [service, cls, source, code] = key.split('/');
      const filled = new URL(page.url()).searchParams;
      expect([
        filled.get('p.service'),
        filled.get('p.class'),
        filled.get('p.source'),
        filled.get('p.code'),
      ]).toEqual([service, cls, source, code]);
    }
  });

  it('opens the Workflows list narrowed to what a workflow figure counts', async () => {
    const t = LINK_TRUTH.workflows;
    await open(width, '/workflows');
    await followToList(page.getByTestId('wf-count').locator('xpath=..'), t.total, 'workflows');
    await open(width, '/workflows');
    const failed = await followToList(page.getByTestId('wf-failed').locator('xpath=..'), t.failed, 'failed');
    expect(failed.get('failed')).toBe('1');
    // Every listed workflow of the failed list failed.
    const outcomes = await page
      .getByTestId('recent-workflows')
      .locator('tbody tr td:nth-child(8)')
      .allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    for (const o of outcomes) expect(o).toContain('failed');
    for (const [steps, truth] of Object.entries(t.bySteps)) {
      for (const [id, expected] of [
        ['wf-steps-workflows', truth.workflows],
        ['wf-steps-succeeded', truth.succeeded],
      ] as const) {
        await open(width, '/workflows');
        await page.locator('summary', { hasText: 'Rows behind this chart' }).click();
        const sp = await followToList(
          page.locator(`tr[data-testid="wf-steps-row"][data-steps="${steps}"]`).getByTestId(id),
          expected,
          `${steps} steps ${id}`,
        );
        expect(sp.get('steps')).toBe(steps);
        const listed = await page
          .getByTestId('recent-workflows')
          .locator('tbody tr td:nth-child(5)')
          .allTextContents();
        for (const s of listed) expect(s).toBe(steps);
      }
    }
    for (const [key, expected] of Object.entries(t.firstFailures)) {
      const [cls, service, source, code] = key.split('/');
      await open(width, '/workflows');
      const sp = await followToList(
        page
          .locator(
            `tr[data-class="${cls}"][data-service="${service}"][data-source="${source}"][data-code="${code}"]`,
          )
          .getByTestId('failed-workflows')
          .locator('a'),
        expected,
        key,
      );
      expect([sp.get('first'), sp.get('first_class'), sp.get('first_service'), sp.get('first_code')]).toEqual(
        ['1', cls, service, code],
      );
    }
  });

  it('opens the rows behind the Overview calls, exact counts included, whose total is the figure', async () => {
    const t = LINK_TRUTH.calls;
    for (const [service, expected] of [
      ['shop', t.shop],
      ['ledger', t.ledger],
    ] as const) {
      await open(width, '/');
      await followToConsole(
        page
          .locator(`[data-testid="budget-table"] tr[data-service="${service}"]`)
          .getByTestId('budget-calls')
          .locator('a'),
        expected,
        'dashboard/budget_call_rows',
        'calls',
        `${service} calls`,
      );
    }
    await open(width, '/');
    await followToConsole(
      page.getByTestId('total-calls').locator('xpath=..'),
      t.shop + t.ledger,
      'dashboard/budget_call_rows',
      'calls',
      'total calls',
    );
    // With a dependency chosen the figure is that edge's calls: the Dependencies query's rows.
    await open(width, '/', `${BASE}&dependency=api.vendor.test`);
    await followToConsole(
      page.getByTestId('total-calls').locator('xpath=..'),
      3 * 2 + 2 + 2 * 2 * 4 + 2 + 3,
      'dashboard/dependencies',
      'calls',
      'calls to api.vendor.test',
    );
  });

  it('reads whole on Retries and Workflows: no word broken mid-word, no page wider than the window', async () => {
    for (const path of ['/retries', '/workflows']) {
      await open(width, path);
      await page.screenshot({ path: join(SHOTS, `${path.slice(1)}-${width}.png`), fullPage: true });
      expect(await layoutFaults(page, 'main table, main .stat-row, main h2, main p'), `${path}`).toEqual({
        broken: [],
        overflowPx: 0,
      });
    }
    await open(
      width,
      '/workflows',
      `${BASE}&failed=1&first=1&first_class=validation&first_service=shop&first_source=db&first_code=23505`,
    );
    expect(await layoutFaults(page, 'main table, main p'), 'a narrowed list').toEqual({
      broken: [],
      overflowPx: 0,
    });
  });
});

describe('what the old calls link opened', () => {
  it('call_counts counts the raw spans, not the exact count: it would not read the figure', async () => {
    const to = Math.floor(Date.now() / 1000) + 60;
    const rows = await namedQuery(app.dashboardUrl, 'dashboard/call_counts', {
      from: to - 3600,
      to,
      service: 'ledger',
    });
    expect(rows.map((r) => Number(r.calls))).toEqual([LINK_TRUTH.calls.ledgerRawSpans]);
  });
});

describe('the Workflows list refuses a bad filter with the fix', () => {
  for (const [query, message] of [
    ['failed=yes', '"failed" is 1 (the failed workflows), 0 (the ones that succeeded) or absent'],
    ['steps=-2', '"steps" is a whole number of steps'],
    ['first=1&first_class=bogus', '"first_class" must be one of'],
    ['first_code=503', '"first_code" narrows by the first failure: add first=1'],
  ] as const) {
    it(`/workflows?${query}`, async () => {
      await page.goto(`${app.dashboardUrl}/workflows?range=1h&${query}`);
      expect(await page.getByTestId('param-error').textContent()).toContain(message);
    });
  }
});
