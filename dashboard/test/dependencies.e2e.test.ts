import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './support/browser';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { EDGES, KAFKA_LATENCY_MS, sendDependencyCalls } from './support/send-dependency-calls';

// Issue 13's Dependencies page, service map and the Overview's dependency filter, against the
// multi-service shop of send-dependency-calls.ts (its numbers counted by hand), read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const consoleErrors: string[] = [];

// Caller faults counted and the calls SLI, so that every first-hand failure of the scenario is one
// the budget panel counts too.
const BASE = 'range=1h&caller_faults=include&sli=calls';

beforeAll(async () => {
  session = await startSeeded(sendDependencyCalls);
  ({ app, page } = session);
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
}, 120_000);

afterAll(() => session?.close());

const edgeKey = (e: { service: string | null; dependency: string | null }) =>
  `${e.service} → ${e.dependency}`;

async function open(path: string, query = ''): Promise<void> {
  await page.goto(`${app.dashboardUrl}${path}?${BASE}${query ? `&${query}` : ''}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

async function readEdges() {
  return page.getByTestId('dependency-edge').evaluateAll((rows) =>
    rows.map((r) => ({
      service: r.getAttribute('data-service'),
      dependency: r.getAttribute('data-dependency'),
      calls: Number(r.getAttribute('data-calls')),
      failures: Number(r.getAttribute('data-failures')),
      retries: Number(r.getAttribute('data-retries')),
      misrouted: Number(r.getAttribute('data-misrouted')),
      budgetShare: Number(r.getAttribute('data-budget-share')),
      dominant: r.getAttribute('data-dominant-class'),
      byClass: Object.fromEntries(
        [...r.querySelectorAll('[data-class][data-count]')].map((c) => [
          c.getAttribute('data-class'),
          Number(c.getAttribute('data-count')),
        ]),
      ),
      codes: Object.fromEntries(
        [...r.querySelectorAll('[data-testid="edge-code"]')].map((c) => [
          c.getAttribute('data-code'),
          Number(c.getAttribute('data-failures')),
        ]),
      ),
      p50: r.querySelector('[data-testid="edge-p50"]')?.textContent,
      p95: r.querySelector('[data-testid="edge-p95"]')?.textContent,
    })),
  );
}

async function sumOf(testId: string, attr = 'data-failures'): Promise<number> {
  const values = await page
    .getByTestId(testId)
    .evaluateAll((els, a) => els.map((e) => Number(e.getAttribute(a))), attr);
  return values.reduce((s, n) => s + n, 0);
}

async function mapEdgeIds(): Promise<string[]> {
  await page.locator('.react-flow__edge').first().waitFor();
  return (
    await page.locator('.react-flow__edge').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
  )
    .map(String)
    .sort();
}

describe('the Dependencies page', () => {
  it("lists each service → dependency edge with the scenario's numbers, most budget consumed first", async () => {
    await open('/dependencies');
    await page.getByTestId('dependencies').waitFor();
    const got = await readEdges();
    // By hand: payments spent 4 failures of 8 calls' budget; checkout 6 and 3 of 63 calls'; the
    // edges that never failed first-hand follow by calls (a tie by service, then dependency).
    expect(got.map(edgeKey)).toEqual([
      'payments → api.stripe.com',
      'checkout → postgresql shop',
      'checkout → aws DynamoDB/PutItem',
      'checkout → payments',
      'checkout → inventory',
      'inventory → kafka orders',
    ]);
    for (const truth of EDGES) {
      const row = got.find((r) => edgeKey(r) === edgeKey(truth));
      expect(row, edgeKey(truth)).toMatchObject({
        calls: truth.calls,
        failures: truth.failures,
        retries: truth.retries,
        misrouted: truth.misrouted,
        byClass: truth.byClass,
        codes: truth.codes,
      });
      if (truth.failures === 0) expect(row?.budgetShare).toBe(0);
      else expect(row?.budgetShare).toBeGreaterThan(0);
    }
    // One service's edges share its budget in proportion to their failures: 6 against 3.
    const share = (k: string) => got.find((r) => edgeKey(r) === k)?.budgetShare ?? 0;
    expect(share('checkout → postgresql shop') / share('checkout → aws DynamoDB/PutItem')).toBeCloseTo(2, 6);
    const kafka = got.find((r) => r.dependency === 'kafka orders');
    expect([kafka?.p50, kafka?.p95]).toEqual([
      `${KAFKA_LATENCY_MS.p50.toFixed(1)} ms`,
      `${KAFKA_LATENCY_MS.p95.toFixed(1)} ms`,
    ]);
  });

  it("adds up a service's edges to the budget the Overview says the service used", async () => {
    await open('/dependencies', 'service=checkout');
    const shares = await page
      .getByTestId('dependency-edge')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-budget-share'))));
    await open('/');
    const used = await page
      .locator('[data-testid="budget-table"] tr[data-service="checkout"]')
      .getByTestId('budget-used-range')
      .textContent();
    expect(Math.abs(shares.reduce((s, n) => s + n, 0) * 100 - Number.parseFloat(used ?? ''))).toBeLessThan(
      0.011,
    );
  });

  it('draws the service map: services and dependencies as nodes, an edge per edge coloured by its dominant class', async () => {
    consoleErrors.length = 0;
    await open('/dependencies');
    await page.getByTestId('service-map').waitFor();
    expect(await mapEdgeIds()).toEqual(EDGES.map(edgeKey).sort());
    const nodes = await page
      .locator('.react-flow__node')
      .evaluateAll((els) => els.map((e) => e.textContent).sort());
    // payments and inventory are services and dependencies both: one node each.
    expect(nodes).toEqual([
      'api.stripe.com',
      'aws DynamoDB/PutItem',
      'checkout',
      'inventory',
      'kafka orders',
      'payments',
      'postgresql shop',
    ]);
    const edgeClass = async (id: string) =>
      page.locator(`.react-flow__edge[data-id="${id}"]`).getAttribute('class');
    expect(await edgeClass('checkout → postgresql shop')).toContain('map-edge-transient');
    expect(await edgeClass('payments → api.stripe.com')).toContain('map-edge-transient');
    expect(await edgeClass('checkout → aws DynamoDB/PutItem')).toContain('map-edge-rate_limit');
    expect(await edgeClass('checkout → payments')).toContain('map-edge-none');
    const width = async (id: string) =>
      Number.parseFloat(
        (await page
          .locator(`.react-flow__edge[data-id="${id}"] path.react-flow__edge-path`)
          .evaluate((p) => getComputedStyle(p).strokeWidth)) ?? '0',
      );
    // Sized by first-hand failures: 6 > 4 > 3 > 0.
    const widths = await Promise.all(
      [
        'checkout → postgresql shop',
        'payments → api.stripe.com',
        'checkout → aws DynamoDB/PutItem',
        'checkout → payments',
      ].map(width),
    );
    expect([...widths].sort((a, b) => b - a)).toEqual(widths);
    expect(new Set(widths).size).toBe(4);
    expect(consoleErrors).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'dependencies.png'), fullPage: true });
  });

  it('opens the Overview filtered to an edge, from its row and from the map, the range kept', async () => {
    await open('/dependencies');
    for (const truth of EDGES) {
      const href = await page
        .locator(
          `tr[data-testid="dependency-edge"][data-service="${truth.service}"][data-dependency="${truth.dependency}"]`,
        )
        .getByTestId('edge-link')
        .getAttribute('href');
      const url = new URL(href ?? '', app.dashboardUrl);
      expect(url.pathname).toBe('/');
      expect(
        Object.fromEntries(['service', 'dependency', 'range'].map((k) => [k, url.searchParams.get(k)])),
      ).toEqual({
        service: truth.service,
        dependency: truth.dependency,
        range: '1h',
      });
    }
    await page.locator('.react-flow__edge[data-id="checkout → postgresql shop"]').click();
    await page.waitForURL(
      (u) => u.pathname === '/' && u.searchParams.get('dependency') === 'postgresql shop',
    );
    const url = new URL(page.url());
    expect(url.searchParams.get('service')).toBe('checkout');
    expect(url.searchParams.get('range')).toBe('1h');
    await page.getByTestId('headline').waitFor();
    expect(await page.getByTestId('headline-dependency').textContent()).toBe('postgresql shop');
    expect(await page.getByTestId('total-failures').textContent()).toBe('6');
    expect(await page.getByTestId('total-calls').textContent()).toBe('40');
  });

  it('narrows every panel by each filter: service, source, class, dependency', async () => {
    const cases: { query: string; edges: string[]; failures: number }[] = [
      {
        query: 'service=payments',
        edges: ['payments → api.stripe.com'],
        failures: 4,
      },
      { query: 'source=db', edges: ['checkout → postgresql shop'], failures: 6 },
      {
        query: 'source=sdk',
        edges: ['checkout → aws DynamoDB/PutItem', 'inventory → kafka orders'],
        failures: 3,
      },
      {
        query: 'class=rate_limit',
        edges: ['checkout → aws DynamoDB/PutItem', 'payments → api.stripe.com'],
        failures: 3,
      },
      {
        query: 'dependency=api.stripe.com',
        edges: ['payments → api.stripe.com'],
        failures: 4,
      },
    ];
    for (const c of cases) {
      await open('/dependencies', c.query);
      const got = await readEdges();
      expect(got.map(edgeKey).sort(), c.query).toEqual(c.edges);
      expect(
        got.reduce((s, r) => s + r.failures, 0),
        c.query,
      ).toBe(c.failures);
      expect(await mapEdgeIds(), c.query).toEqual(c.edges);
    }
  });
});

describe('the Overview by dependency', () => {
  it('names the dependency in the headline and in top codes', async () => {
    await open('/');
    // Transient failures of the database (4) lead; all of them called postgresql shop.
    expect(await page.getByTestId('headline-class').textContent()).toContain('transient');
    expect(await page.getByTestId('headline-source').textContent()).toBe('db');
    expect(await page.getByTestId('headline-dependency').textContent()).toBe('postgresql shop');
    const codes = await page
      .getByTestId('top-code')
      .evaluateAll((rows) =>
        rows.map((r) => [
          `${r.getAttribute('data-service')} → ${r.getAttribute('data-dependency')}`,
          r.getAttribute('data-key'),
          Number(r.getAttribute('data-failures')),
        ]),
      );
    expect(codes.sort()).toEqual(
      EDGES.flatMap((e) =>
        Object.entries(e.codes).map(([code, n]) => {
          const [cls, c] = code.split('/');
          return [edgeKey(e), `${cls}/${e.source}/${c}`, n];
        }),
      ).sort(),
    );
  });

  it('narrows every panel by each filter: service, source, class, dependency', async () => {
    // First-hand failures of the scenario: postgresql shop 6, api.stripe.com 4, DynamoDB 3.
    const cases: { query: string; failures: number }[] = [
      { query: '', failures: 13 },
      { query: 'service=checkout', failures: 9 },
      { query: 'service=payments', failures: 4 },
      { query: 'source=http', failures: 4 },
      { query: 'source=sdk', failures: 3 },
      { query: 'class=transient', failures: 7 },
      { query: 'class=validation', failures: 2 },
      { query: 'dependency=postgresql shop', failures: 6 },
      { query: 'dependency=aws DynamoDB/PutItem', failures: 3 },
      { query: 'service=checkout&class=rate_limit', failures: 2 },
    ];
    for (const c of cases) {
      await open('/', c.query.replaceAll(' ', '%20'));
      await page.getByTestId('headline').waitFor();
      const panels = {
        headline: Number(await page.getByTestId('total-failures').textContent()),
        matrix: await page
          .locator('[data-testid="matrix"] td[data-failures]')
          .evaluateAll((tds) => tds.reduce((s, td) => s + Number(td.getAttribute('data-failures')), 0)),
        timeline: await page
          .locator('[data-testid="timeline-rows"] td[data-failures]')
          .evaluateAll((tds) => tds.reduce((s, td) => s + Number(td.getAttribute('data-failures')), 0)),
        topCodes: await sumOf('top-code'),
        budget: await page
          .getByTestId('budget-failures')
          .evaluateAll((tds) => tds.reduce((s, td) => s + Number(td.textContent), 0)),
      };
      expect(panels, c.query).toEqual({
        headline: c.failures,
        matrix: c.failures,
        timeline: c.failures,
        topCodes: c.failures,
        budget: c.failures,
      });
    }
  });

  it('has a by-dependency view of the matrix', async () => {
    await open('/', 'matrix=dependency');
    const cells = await page
      .locator('[data-testid="matrix"] td[data-dependency]')
      .evaluateAll((tds) =>
        tds.map(
          (td) =>
            `${td.getAttribute('data-class')} × ${td.getAttribute('data-dependency')} = ${td.getAttribute('data-failures')}`,
        ),
      );
    expect(cells.sort()).toEqual(
      EDGES.flatMap((e) =>
        Object.entries(e.byClass).map(([cls, n]) => `${cls} × ${e.dependency} = ${n}`),
      ).sort(),
    );
    expect(await page.getByTestId('matrix-by-dependency').getAttribute('aria-current')).toBe('true');
  });

  it('filters by dependency and class from the filter bar, into the URL', async () => {
    await open('/');
    await page.getByTestId('filter-dependency').selectOption('api.stripe.com');
    await page.waitForURL((u) => u.searchParams.get('dependency') === 'api.stripe.com');
    await page.getByTestId('filter-class').selectOption('transient');
    await page.waitForURL((u) => u.searchParams.get('class') === 'transient');
    await page.getByTestId('headline').waitFor();
    expect(await page.getByTestId('total-failures').textContent()).toBe('3');
    expect(await page.getByTestId('filter-dependency').inputValue()).toBe('api.stripe.com');
    expect(await page.getByTestId('filter-class').inputValue()).toBe('transient');
  });

  it('fills the custom range inputs from from/to in the URL, on both pages', async () => {
    const toS = Math.ceil(Date.now() / 60_000) * 60;
    const fromS = toS - 2 * 3600;
    const iso = (s: number) => new Date(s * 1000).toISOString().slice(0, 16);
    // The inputs are 24-hour text in the reader's zone (UTC unless chosen): "2026-01-31 09:30".
    const shown = (s: number) => iso(s).replace('T', ' ');
    for (const path of ['/', '/dependencies']) {
      await page.goto(
        `${app.dashboardUrl}${path}?from=${iso(fromS)}&to=${iso(toS)}&dependency=postgresql%20shop`,
      );
      await page.getByTestId('custom-from').waitFor();
      expect([
        await page.getByTestId('custom-from').inputValue(),
        await page.getByTestId('custom-to').inputValue(),
      ]).toEqual([shown(fromS), shown(toS)]);
    }
    const got = await readEdges();
    expect(got.map(edgeKey)).toEqual(['checkout → postgresql shop']);
  });
});
