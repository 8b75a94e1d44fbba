import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { CLICK_TRUTH, INVENTORY_HOST, REFUSED_ID, sendClickPaths } from './support/send-click-paths';

// Issue 30: every number is a link to exactly the rows it counts, the on-call path takes two clicks
// from the Overview to the failing span, and the budget holds still while the clock moves with
// nothing new stored. The shop of send-click-paths.ts, its numbers counted by hand, sent through
// the real exporter to a real `npm start`, read in Chromium at 1280, 1440 and 1920 px.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
/** Start of the scenario's last span, unix ms. */
let lastSpanMs = 0;
const WIDTHS = [1280, 1440, 1920];
// The alerts' SLI, caller faults apart: the defaults an on-call engineer first sees.
const BASE = 'range=1h&sli=calls&caller_faults=exclude';

beforeAll(async () => {
  session = await startSeeded(async (otlpUrl) => {
    lastSpanMs = await sendClickPaths(otlpUrl);
  });
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

async function open(width: number, path: string, query = BASE): Promise<void> {
  await page.setViewportSize({ width, height: 1000 });
  await page.goto(`${app.dashboardUrl}${path}?${query}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

const count = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

/** The total the Failures page shows for the groups it lists. */
async function failuresTotal(): Promise<number> {
  await page.waitForURL((u) => u.pathname === '/failures');
  return count(await page.getByTestId('groups-total-failures').textContent());
}

/** Clicks a shown number and reads the total of the view it opens: both must be `expected`. */
async function follow(link: Locator, expected: number, what: string): Promise<void> {
  expect(count(await link.textContent()), `${what}: the number shown`).toBe(expected);
  await link.click();
  expect(await failuresTotal(), `${what}: the total of the view it opens`).toBe(expected);
}

function topCode(key: string): Locator {
  const [service, dependency, cls, source, code] = key.split('/');
  return page.locator(
    `tr[data-testid="top-code"][data-service="${service}"][data-dependency="${dependency}"][data-class="${cls}"][data-source="${source}"][data-code="${code}"]`,
  );
}

describe.each(WIDTHS)('at %i px', (width) => {
  it('takes two clicks from the headline to the failing span of an example request', async () => {
    await open(width, '/');
    const headline = page.getByTestId('headline');
    expect(
      await headline.getByTestId('headline-class').locator('[data-class]').getAttribute('data-class'),
    ).toBe(CLICK_TRUTH.headline.class);
    expect(await headline.getByTestId('headline-source').textContent()).toBe(CLICK_TRUTH.headline.source);
    expect(count(await headline.getByTestId('headline-failures').textContent())).toBe(
      CLICK_TRUTH.headline.failures,
    );
    let clicks = 0;
    await headline.getByTestId('headline-groups').click();
    clicks += 1;
    // The failure groups of that class and source: their total is the headline's number.
    expect(await failuresTotal()).toBe(CLICK_TRUTH.headline.failures);
    const top = page.getByTestId('failure-group').first();
    expect(await top.getAttribute('data-code')).toBe('ECONNREFUSED');
    expect(await top.getAttribute('data-dependency')).toBe(INVENTORY_HOST);
    await top.getByTestId('group-example').click();
    clicks += 1;
    await page.waitForURL((u) => u.pathname === '/request');
    const url = new URL(page.url());
    expect(url.searchParams.get('id')).toMatch(REFUSED_ID);
    const spanId = url.searchParams.get('span');
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    // Landed on the failing span: selected in the tree, open in the panel, its envelope shown.
    const panel = page.getByTestId('span-panel');
    await panel.waitFor();
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.getAttribute('data-span-id')).toBe(spanId);
    expect(await page.locator('[role="treeitem"][aria-selected="true"]').getAttribute('data-span-id')).toBe(
      spanId,
    );
    const envelope = panel.getByTestId('span-panel-envelope');
    expect(await envelope.locator('tr[data-key="class"] td').textContent()).toBe('transient');
    expect(await envelope.locator('tr[data-key="code"] td').textContent()).toBe('ECONNREFUSED');
    expect(await envelope.textContent()).toContain('first-hand failure');
    expect(clicks).toBeLessThanOrEqual(2);
  });

  it('opens exactly the rows a top-codes count counts: service, dependency, class, source and code', async () => {
    // 7 ECONNREFUSED to inventory's host:port, beside 2 × 503 to the same dependency and 3
    // ECONNREFUSED to payments: a view that drops the code reads 9, one that drops the dependency 10.
    for (const key of [
      `checkout/${INVENTORY_HOST}/transient/http/ECONNREFUSED`,
      'inventory//authentication/http/401',
    ]) {
      await open(width, '/');
      await follow(topCode(key).getByTestId('top-code-count'), CLICK_TRUTH.topCodes[key]!, key);
      const filters = new URL(page.url()).searchParams;
      const [service, dependency, cls, source, code] = key.split('/');
      expect({
        service: filters.get('service'),
        dependency:
          filters.get('dependency') ?? (filters.get('none')?.split(',').includes('dependency') ? '' : null),
        class: filters.get('class'),
        source: filters.get('source'),
        code: filters.get('code'),
      }).toEqual({ service, dependency, class: cls, source, code });
    }
  });

  it('opens exactly the rows a matrix cell counts', async () => {
    for (const [cell, expected] of Object.entries(CLICK_TRUTH.matrix)) {
      const [cls, source] = cell.split('/');
      await open(width, '/');
      await follow(page.getByTestId(`matrix-${cls}-${source}`).getByTestId('matrix-count'), expected, cell);
    }
  });

  it('opens exactly the rows a budget cell counts: failures, caller faults, a class', async () => {
    const row = () => page.locator('[data-testid="budget-table"] tr[data-service="checkout"]');
    const truth = CLICK_TRUTH.budget.checkout;
    await open(width, '/');
    await follow(row().getByTestId('budget-failures').locator('a'), truth.failures, 'checkout failures');
    expect(new URL(page.url()).searchParams.get('outbound')).toBe('1');
    await open(width, '/');
    await follow(row().getByTestId('budget-caller-faults').locator('a'), truth.callerFaults, 'caller faults');
    await open(width, '/');
    await follow(
      row().locator('[data-class="transient"][data-count]').locator('a'),
      truth.failures,
      'checkout transient',
    );
    await open(width, '/');
    await follow(
      page
        .locator('[data-testid="budget-table"] tr[data-service="payments"]')
        .getByTestId('budget-failures')
        .locator('a'),
      CLICK_TRUTH.budget.payments.failures,
      'payments failures',
    );
  });

  it('opens an edge’s failure groups from Dependencies, by class and by code, and its calls on the Overview', async () => {
    const key = `checkout → ${INVENTORY_HOST}`;
    const edge = () =>
      page.locator(
        `tr[data-testid="dependency-edge"][data-service="checkout"][data-dependency="${INVENTORY_HOST}"]`,
      );
    const truth = CLICK_TRUTH.edges[key]!;
    await open(width, '/dependencies');
    expect(await edge().getByTestId('edge-callee').textContent()).toBe('inventory');
    await follow(edge().getByTestId('edge-failures'), truth.failures, `${key} failures`);
    await open(width, '/dependencies');
    await follow(edge().getByTestId('edge-class-count'), truth.byClass.transient!, `${key} transient`);
    await open(width, '/dependencies');
    await follow(
      edge().locator('[data-code="transient/ECONNREFUSED"]').getByTestId('edge-code-count'),
      CLICK_TRUTH.topCodes[`checkout/${INVENTORY_HOST}/transient/http/ECONNREFUSED`]!,
      `${key} ECONNREFUSED`,
    );
    await open(width, '/dependencies');
    const calls = edge().getByTestId('edge-calls');
    expect(count(await calls.textContent())).toBe(truth.calls);
    await calls.click();
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('dependency') === INVENTORY_HOST);
    expect(count(await page.getByTestId('total-calls').textContent())).toBe(truth.calls);
  });

  it('names the Overview’s dependencies by the service that answered, host:port beside', async () => {
    await open(width, '/');
    const dependency = page.getByTestId('headline').getByTestId('headline-dependency');
    expect(await dependency.getByTestId('dependency-callee').textContent()).toBe('inventory');
    expect(await dependency.getByTestId('dependency-address').textContent()).toBe(INVENTORY_HOST);
    const row = topCode(`checkout/${INVENTORY_HOST}/transient/http/ECONNREFUSED`);
    expect(await row.getByTestId('dependency-callee').textContent()).toBe('inventory');
    expect(await row.getByTestId('dependency-address').textContent()).toBe(INVENTORY_HOST);
  });

  it('shows the whole budget table, by class included, and no page wider than the window', async () => {
    await open(width, '/');
    const fit = await page.evaluate(() => {
      const table = document.querySelector('[data-testid="budget-table"]') as HTMLElement;
      const panel = table.closest('.panel') as HTMLElement;
      const byClass = table.querySelector('[data-testid="budget-by-class-header"]')!.getBoundingClientRect();
      const box = panel.getBoundingClientRect();
      return {
        overflowPx: document.documentElement.scrollWidth - window.innerWidth,
        tableScrolls: panel.scrollWidth > panel.clientWidth,
        byClassInside: byClass.right <= box.right && byClass.left >= box.left,
      };
    });
    // The whole table in view at every width, the burn rates of every window included (one cell):
    // nothing scrolls inside the panel, nor the page.
    expect(fit.overflowPx).toBe(0);
    expect(fit.byClassInside).toBe(true);
    expect(fit.tableScrolls).toBe(false);
    // Numbers right-aligned, in figures of one width.
    const align = await page
      .getByTestId('budget-failures')
      .first()
      .evaluate((td) => [getComputedStyle(td).textAlign, getComputedStyle(td).fontVariantNumeric]);
    expect(align).toEqual(['right', 'tabular-nums']);
  });
});

describe('the budget holds still while the clock moves and nothing new is stored', () => {
  /** Each service's budget cells as shown (the service's own cell aside: an alert may mark it). */
  async function budgetFigures(query: string): Promise<Record<string, string[]>> {
    await page.goto(`${app.dashboardUrl}/?${query}&sli=calls&caller_faults=exclude`);
    await page.getByTestId('budget-table').waitFor();
    return Object.fromEntries(
      await page
        .locator('[data-testid="budget-table"] tr[data-service]')
        .evaluateAll((rows) =>
          rows.map((r) => [
            r.getAttribute('data-service'),
            [...r.querySelectorAll('td')].slice(1).map((td) => (td.textContent ?? '').trim()),
          ]),
        ),
    );
  }

  it('shows the same figures with the range ending 5, 11 minutes after the last span and now', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    // Two pins after the last stored minute, both in the past: the clock at two moments, the
    // range an hour wide as range=1h is, the data inside both.
    const lastMinuteEnd = Math.ceil((lastSpanMs + 1) / 60_000) * 60;
    const pins = [lastMinuteEnd + 5 * 60, lastMinuteEnd + 11 * 60];
    expect(pins[1]! * 1000).toBeLessThan(Date.now());
    const [first, second] = [
      await budgetFigures(`from=${pins[0]! - 3600}&to=${pins[0]}`),
      await budgetFigures(`from=${pins[1]! - 3600}&to=${pins[1]}`),
    ];
    const now = await budgetFigures('range=1h');
    expect(Object.keys(first).sort()).toEqual(Object.keys(CLICK_TRUTH.budget).sort());
    expect(second).toEqual(first);
    expect(now).toEqual(first);
    // And they are the scenario's: calls, failures, echoes and caller faults as sent.
    for (const [service, truth] of Object.entries(CLICK_TRUTH.budget)) {
      await page.goto(
        `${app.dashboardUrl}/?from=${pins[1]! - 3600}&to=${pins[1]}&sli=calls&caller_faults=exclude`,
      );
      const row = page.locator(`[data-testid="budget-table"] tr[data-service="${service}"]`);
      const read = async (id: string) => count(await row.getByTestId(id).textContent());
      expect(
        {
          calls: await read('budget-calls'),
          failures: await read('budget-failures'),
          propagated: await read('budget-propagated'),
          callerFaults: await read('budget-caller-faults'),
        },
        service,
      ).toEqual(truth);
      expect(await row.getByTestId('budget-allowed').textContent()).toMatch(/\d/);
    }
  });
});
