import { join } from 'node:path';
import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchChromium } from './support/browser';
import {
  type DemoRun,
  type FaultlineProcess,
  minutesAround,
  runDemo,
  startFaultline,
} from './support/faultline-process';
import { sendFailedCalls } from './support/send-spans';
import { namedQuery } from './support/sql-api';

// One `npm start` child with demo traffic serves every test here; Chromium drives the pages.
let app: FaultlineProcess;
let demo: DemoRun;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let fromS: number;
let toS: number;

const parseCount = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

async function waitForIngest(): Promise<void> {
  // The collector acknowledges after its write-ahead fsync and inserts in the background: first
  // wait until it has nothing pending, then until counts stop moving (late exporter flushes).
  await waitForInserted(app.otlpUrl);
  let last = -1;
  for (let i = 0; i < 60; i++) {
    const rows = await namedQuery(app.dashboardUrl, 'dashboard/call_counts', {
      from: fromS,
      to: toS,
      service: '',
    });
    const total = rows.reduce((s, r) => s + Number(r.calls), 0);
    if (total > 0 && total === last) return;
    last = total;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('spans did not settle in the store within 60 s');
}

async function overviewMatrix(): Promise<Map<string, number>> {
  const cells = await page.locator('[data-testid^="matrix-"][data-failures]').all();
  const out = new Map<string, number>();
  for (const cell of cells) {
    const id = (await cell.getAttribute('data-testid'))!.slice('matrix-'.length);
    out.set(id, Number(await cell.getAttribute('data-failures')));
  }
  return out;
}

async function sqlMatrix(params: { service: string; source: string }): Promise<Map<string, number>> {
  const rows = await namedQuery(app.dashboardUrl, 'dashboard/failure_counts', {
    from: fromS,
    to: toS,
    ...params,
  });
  return new Map(rows.map((r) => [`${r.class}-${r.source}`, Number(r.failures)]));
}

async function budgetRows(): Promise<Map<string, { calls: number; failures: number }>> {
  const rows = await page.locator('[data-testid="budget-table"] tbody tr').all();
  const out = new Map<string, { calls: number; failures: number }>();
  for (const row of rows) {
    out.set((await row.getAttribute('data-service'))!, {
      calls: parseCount(await row.locator('[data-testid="budget-calls"]').textContent()),
      failures: parseCount(await row.locator('[data-testid="budget-failures"]').textContent()),
    });
  }
  return out;
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  const startS = Math.floor(Date.now() / 1000);
  app = await startFaultline();
  demo = await runDemo(app.otlpUrl, 10, 5);
  ({ fromS, toS } = minutesAround(startS));
  await waitForIngest();
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('overview', () => {
  it('shows the same failures per class and source, and calls per service, as SQL over the raw tables', async () => {
    // The outbound-calls SLI with caller faults counted: then the budget table is every first-hand
    // failure of every logical call, which call_counts recounts from the raw spans.
    await page.goto(`${app.dashboardUrl}/?from=${fromS}&to=${toS}&sli=calls&caller_faults=include`);
    await page.locator('[data-testid="matrix"]').waitFor();
    const shown = await overviewMatrix();
    const expected = await sqlMatrix({ service: '', source: '' });
    expect(expected.size).toBeGreaterThanOrEqual(8);
    expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(expected));
    // Every class and every source of the demo made it through preload → collector → rollup → page.
    const classes = new Set([...shown.keys()].map((k) => k.split('-')[0]));
    expect([...classes].sort()).toEqual([
      'authentication',
      'permanent',
      'rate_limit',
      'transient',
      'validation',
    ]);
    const sources = new Set([...shown.keys()].map((k) => k.split('-')[1]));
    expect(sources.has('http') && sources.has('db') && sources.has('sdk')).toBe(true);

    const budget = await budgetRows();
    const calls = await namedQuery(app.dashboardUrl, 'dashboard/call_counts', {
      from: fromS,
      to: toS,
      service: '',
    });
    expect(Object.fromEntries(budget)).toEqual(
      Object.fromEntries(
        calls.map((r) => [r.service, { calls: Number(r.calls), failures: Number(r.failures) }]),
      ),
    );
    // The headline counts every first-hand failure, server spans' own rejections too.
    const totalFailures = parseCount(await page.getByTestId('total-failures').textContent());
    expect(totalFailures).toBe([...expected.values()].reduce((s, n) => s + n, 0));
    await expect(page.getByTestId('headline').textContent()).resolves.toMatch(
      /eat the most budget .*first-hand failures/,
    );

    // Top codes: each shown count equals the raw first-hand failure rows of that service and code.
    const topCodes = new Map<string, number>();
    for (const row of await page.getByTestId('top-code').all()) {
      topCodes.set(
        `${await row.getAttribute('data-service')}:${await row.getAttribute('data-key')}`,
        Number(await row.getAttribute('data-failures')),
      );
    }
    const codes = await namedQuery(app.dashboardUrl, 'dashboard/failure_codes', {
      from: fromS,
      to: toS,
      service: '',
      source: '',
    });
    expect(topCodes.size).toBe(Math.min(15, codes.length));
    const rawByKey = new Map(
      codes.map((r) => [`${r.service}:${r.class}/${r.source}/${r.code}`, Number(r.failures)]),
    );
    for (const [key, n] of topCodes) expect(n).toBe(rawByKey.get(key));
    // Ties at the cut may pick different codes, never different counts.
    expect([...topCodes.values()]).toEqual(codes.slice(0, topCodes.size).map((r) => Number(r.failures)));
    await shot('overview');
  });

  it('narrows every number when a service or a source filter is chosen, and keeps the filter in the URL', async () => {
    await page.goto(`${app.dashboardUrl}/?from=${fromS}&to=${toS}&sli=calls`);
    await page.getByTestId('filter-service').selectOption('payments');
    await page.waitForURL(/service=payments/);
    await page.locator('[data-testid="budget-table"] tbody tr').first().waitFor();
    const budget = await budgetRows();
    expect([...budget.keys()]).toEqual(['payments']);
    expect(Object.fromEntries(await overviewMatrix())).toEqual(
      Object.fromEntries(await sqlMatrix({ service: 'payments', source: '' })),
    );

    await page.getByTestId('filter-source').selectOption('db');
    await page.waitForURL(/source=db/);
    expect(page.url()).toContain('service=payments');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid^="matrix-"][data-failures]')].every((c) =>
        c.getAttribute('data-testid')!.endsWith('-db'),
      ),
    );
    const dbOnly = await overviewMatrix();
    expect(dbOnly.size).toBeGreaterThan(0);
    expect(Object.fromEntries(dbOnly)).toEqual(
      Object.fromEntries(await sqlMatrix({ service: 'payments', source: 'db' })),
    );
    await shot('overview-filtered');
  });

  it('follows the time range: a preset covers the run, a range before it is empty', async () => {
    await page.goto(`${app.dashboardUrl}/?from=${fromS}&to=${toS}`);
    const wide = parseCount(await page.getByTestId('total-failures').textContent());
    await page.getByTestId('range-15m').click();
    await page.waitForURL(/range=15m/);
    expect(page.url()).not.toContain('from=');
    await page.getByTestId('total-failures').waitFor();
    expect(parseCount(await page.getByTestId('total-failures').textContent())).toBe(wide);

    await page.goto(`${app.dashboardUrl}/?from=${fromS - 7200}&to=${fromS - 3600}`);
    await expect(page.getByTestId('empty-state').textContent()).resolves.toContain(
      'node --import @faultline/instrumentation/register app.js',
    );
    await expect(page.getByTestId('empty-state').textContent()).resolves.toContain(
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    );

    await page.goto(`${app.dashboardUrl}/?range=3w`);
    await expect(page.getByTestId('param-error').textContent()).resolves.toContain('is not a preset');
  });
});

describe('request view', () => {
  it('finds every span of one request by its correlation id, across services, with envelopes', async () => {
    // The schedule puts charge_rate_limited second: a 429, a wait, a successful retry.
    const id = `${demo.prefix}-2`;
    const expected = await namedQuery(app.dashboardUrl, 'dashboard/request_spans', { id });
    expect(expected.length).toBeGreaterThan(5);
    await page.goto(`${app.dashboardUrl}/request`);
    await page.getByTestId('request-id').fill(id);
    await page.getByTestId('request-search').click();
    await page.getByTestId('span-timeline').waitFor();
    const rows = page.getByTestId('span-row');
    expect(await rows.count()).toBe(expected.length);
    const text = (await page.getByTestId('span-timeline').textContent()) ?? '';
    for (const service of ['checkout', 'inventory', 'payments']) expect(text).toContain(service);
    const envelopes = page.getByTestId('envelope');
    expect(await envelopes.count()).toBe(expected.filter((r) => r.class !== '').length);
    expect(await envelopes.first().textContent()).toContain('rate_limit');
    await envelopes.first().locator('summary').click();
    await shot('request');
  });
});

describe('workflows and retries', () => {
  it('shows workflows with measured step reliability and the misrouted retry', async () => {
    await page.goto(`${app.dashboardUrl}/workflows?from=${fromS}&to=${toS}`);
    const summary = (
      await namedQuery(app.dashboardUrl, 'dashboard/workflows_summary', { from: fromS, to: toS, service: '' })
    )[0]!;
    expect(parseCount(await page.getByTestId('wf-count').textContent())).toBe(Number(summary.workflows));
    expect(parseCount(await page.getByTestId('wf-failed').textContent())).toBe(
      Number(summary.failed_workflows),
    );
    expect(Number(summary.workflows)).toBe(demo.sent);
    await shot('workflows');

    await page.goto(`${app.dashboardUrl}/retries?from=${fromS}&to=${toS}`);
    expect(parseCount(await page.getByTestId('misrouted-count').textContent())).toBeGreaterThan(0);
    await page.getByTestId('misrouted').waitFor();
    await shot('retries');
  });
});

describe('SQL console', () => {
  it('runs a named query with its parameters and refuses a write', async () => {
    await page.goto(`${app.dashboardUrl}/sql`);
    await page.getByTestId('named-dashboard/failure_counts').click();
    await page.getByTestId('param-from').fill(String(fromS));
    await page.getByTestId('param-to').fill(String(toS));
    await page.getByTestId('run-named').click();
    await page.getByTestId('sql-table').waitFor();
    const expected = await sqlMatrix({ service: '', source: '' });
    expect(parseCount(await page.getByTestId('sql-row-count').textContent())).toBe(expected.size);
    await shot('sql');

    await page.getByTestId('sql-editor').fill("INSERT INTO failures (class) VALUES ('validation')");
    await page.getByTestId('run-sql').click();
    await expect(page.getByTestId('sql-error').textContent()).resolves.toMatch(/readonly/i);
    const after = await sqlMatrix({ service: '', source: '' });
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(expected));
  });
});

// Last: it adds spans, which the exact counts above (workflows = demo runs) must not see.
describe('live refresh', () => {
  it('shows spans sent after the page opened, without a reload, keeping the filters', async () => {
    await page.goto(`${app.dashboardUrl}/?range=1h&service=payments&source=rpc&sli=calls`);
    await page.getByTestId('rendered-at').waitFor();
    // The demo sends no rpc calls: the filtered page starts empty of failures or without the cell.
    const cell = page.getByTestId('matrix-transient-rpc');
    const before = (await cell.count()) ? Number(await cell.getAttribute('data-failures')) : 0;
    // A full reload would drop this marker; router.refresh() keeps the document.
    await page.evaluate(() => {
      (window as unknown as { __liveMarker: string }).__liveMarker = 'kept';
    });
    const run = `live-${Date.now().toString(36)}`;
    const sent = [1, 2, 3].map((i) => ({
      service: 'payments',
      class: 'transient',
      source: 'rpc',
      code: '14',
      correlationId: `${run}-${i}`,
    }));
    // The same failure from another service must stay out of the service=payments view.
    const decoy = { ...sent[0]!, service: 'inventory', correlationId: `${run}-decoy` };
    await sendFailedCalls(app.otlpUrl, [...sent, decoy]);
    for (let i = 0; ; i++) {
      const stored = await namedQuery(app.dashboardUrl, 'dashboard/failure_counts', {
        from: fromS,
        to: Math.ceil((Date.now() / 1000 + 60) / 60) * 60,
        service: 'payments',
        source: 'rpc',
      });
      if (stored.some((r) => r.class === 'transient' && Number(r.failures) === before + sent.length)) break;
      if (i >= 20) throw new Error('the spans sent through OTLP did not reach the store within 10 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    const stored = performance.now();

    // The live refresh runs every 10 s: the new failures must appear within one interval and a bit.
    await page.waitForFunction(
      (want) =>
        document.querySelector('[data-testid="matrix-transient-rpc"]')?.getAttribute('data-failures') ===
        String(want),
      before + sent.length,
      { timeout: 12_500, polling: 250 },
    );
    expect(performance.now() - stored).toBeLessThan(12_500);
    expect(await page.evaluate(() => (window as unknown as { __liveMarker?: string }).__liveMarker)).toBe(
      'kept',
    );
    const url = new URL(page.url());
    expect(url.searchParams.get('service')).toBe('payments');
    expect(url.searchParams.get('source')).toBe('rpc');
    expect(url.searchParams.get('range')).toBe('1h');
    expect(url.searchParams.get('sli')).toBe('calls');
    await expect(page.getByTestId('filter-service').inputValue()).resolves.toBe('payments');
    await expect(page.getByTestId('filter-source').inputValue()).resolves.toBe('rpc');
    await expect(page.getByTestId('range-1h').getAttribute('aria-pressed')).resolves.toBe('true');
    // Still filtered after the refresh: only payments in the budget, the decoy not counted.
    expect([...(await budgetRows()).keys()]).toEqual(['payments']);
    expect(await page.getByTestId('matrix-transient-rpc').getAttribute('data-failures')).toBe(
      String(before + sent.length),
    );
    await shot('overview-live-refresh');
  });
});
