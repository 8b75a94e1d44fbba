import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeTicks } from '../src/lib/time-ticks';
import { launchChromium } from './support/browser';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { sendTimedCalls } from './support/send-timed-calls';
import { STEER_TRUTH, steerScenario } from './support/steer-scenario';

// Issue 31's time an on-call engineer can steer, against the shop of steer-scenario.ts (version
// 1.0.0, then 2.0.0 deployed 20 minutes before the send): drag-to-zoom, deploy markers and the
// failure groups' release links, the link to this view, local time or UTC, and the filters by
// code, version, endpoint and message, read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const base = Math.floor(Date.now() / 60_000) * 60_000;
const { calls, deployAtMs } = steerScenario(base);
const deployS = deployAtMs / 1000;

beforeAll(async () => {
  session = await startSeeded((url) => sendTimedCalls(url, calls));
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

/**
 * A time chart's axis: unix seconds → page x (for the mouse) and → SVG x (what recharts drew), from
 * the x axis line (it spans the chart's domain) and the domain the chart declares.
 */
async function timeAxis(chart: Locator) {
  const line = chart.locator('.recharts-xAxis .recharts-cartesian-axis-line');
  await line.waitFor({ state: 'attached' });
  // The mouse reaches what is in the viewport only.
  await chart.scrollIntoViewIfNeeded();
  const from = Number(await chart.getAttribute('data-from'));
  const to = Number(await chart.getAttribute('data-to'));
  const x1 = Number(await line.getAttribute('x1'));
  const x2 = Number(await line.getAttribute('x2'));
  const y = Number(await line.getAttribute('y1'));
  const svg = (await chart.locator('.recharts-wrapper > svg.recharts-surface').boundingBox())!;
  const svgX = (t: number) => x1 + ((t - from) / (to - from)) * (x2 - x1);
  return { svgX, x: (t: number) => svg.x + svgX(t), y: svg.y + y - 60, from, to };
}

const shownRange = async () => ({
  fromS: Number(await page.locator('form.filter-bar').getAttribute('data-from-s')),
  toS: Number(await page.locator('form.filter-bar').getAttribute('data-to-s')),
});

describe('time an on-call engineer can steer', () => {
  it('zooms the range to the times dragged across on the timeline', async () => {
    await page.goto(`${app.dashboardUrl}/?range=1h&service=shop`);
    const chart = page.getByTestId('timeline-chart');
    const axis = await timeAxis(chart);
    const bucketS = Number(await chart.getAttribute('data-bucket-s'));
    expect(bucketS).toBe(60);
    // From the bucket 32 minutes before the send to the one 12 minutes before, each grabbed mid-bucket.
    const a = (base - 32 * 60_000) / 1000;
    const b = (base - 12 * 60_000) / 1000;
    await page.mouse.move(axis.x(a + 30), axis.y);
    await page.mouse.down();
    await page.mouse.move(axis.x(b + 30), axis.y, { steps: 12 });
    // The selection is drawn while dragging.
    expect(await chart.locator('.recharts-reference-area').count()).toBe(1);
    await page.mouse.up();
    await page.waitForURL((u) => u.searchParams.has('from'));
    const url = new URL(page.url());
    expect(url.searchParams.get('range')).toBeNull();
    expect(url.searchParams.get('service')).toBe('shop');
    expect(Date.parse(url.searchParams.get('from')!) / 1000).toBe(a);
    expect(Date.parse(url.searchParams.get('to')!) / 1000).toBe(b + bucketS);
    // The page now shows that window: its range, the custom inputs, and only the failures inside it
    // (rate_limit 32 and 31 minutes before, then transient from 20 to 12 minutes before).
    await page.getByTestId('headline').waitFor();
    expect(await shownRange()).toEqual({ fromS: a, toS: b + bucketS });
    const iso = (s: number) => new Date(s * 1000).toISOString().slice(0, 16).replace('T', ' ');
    expect(await page.getByTestId('custom-from').inputValue()).toBe(iso(a));
    expect(await page.getByTestId('custom-to').inputValue()).toBe(iso(b + bucketS));
    const timeline = await page
      .locator('[data-testid="timeline-rows"] td[data-failures]')
      .evaluateAll((tds) =>
        tds.reduce<Record<string, number>>((o, td) => {
          const c = td.getAttribute('data-class')!;
          o[c] = (o[c] ?? 0) + Number(td.getAttribute('data-failures'));
          return o;
        }, {}),
      );
    expect(timeline).toMatchObject({ rate_limit: 2, transient: 9, validation: 0 });
  });

  it('zooms the Alerts burn chart too', async () => {
    await page.goto(`${app.dashboardUrl}/alerts?service=shop`);
    const chart = page.locator('[data-testid="burn-chart"][data-service="shop"] .zoomable');
    const axis = await timeAxis(chart);
    // Without a range the chart starts at the shop's first data (40 minutes before), not 6 h back.
    expect(axis.from).toBe((base - 40 * 60_000) / 1000);
    const a = (base - 25 * 60_000) / 1000;
    const b = (base - 15 * 60_000) / 1000;
    await page.mouse.move(axis.x(a), axis.y);
    await page.mouse.down();
    await page.mouse.move(axis.x(b), axis.y, { steps: 12 });
    await page.mouse.up();
    await page.waitForURL((u) => u.searchParams.has('from'));
    const url = new URL(page.url());
    expect(url.pathname).toBe('/alerts');
    expect(Date.parse(url.searchParams.get('from')!) / 1000).toBe(a);
    expect(Date.parse(url.searchParams.get('to')!) / 1000).toBe(b + 60);
    await page.getByTestId('burn-reset').waitFor();
    const zoomed = page.locator('[data-testid="burn-chart"][data-service="shop"] .zoomable');
    expect(Number(await zoomed.getAttribute('data-from'))).toBe(a);
  });

  it('marks the 2.0.0 deploy at its first span on the Overview, Failures and Alerts timelines', async () => {
    for (const path of ['/?range=1h', '/failures?range=1h']) {
      await page.goto(`${app.dashboardUrl}${path}`);
      const chart = page.getByTestId('timeline-chart');
      const axis = await timeAxis(chart);
      const marker = chart.locator('[data-testid="deploy-marker"]');
      // A vertical line has no width: attached, not "visible".
      await marker.waitFor({ state: 'attached' });
      expect(await marker.count(), path).toBe(1);
      expect(await marker.getAttribute('data-version')).toBe('2.0.0');
      expect(await marker.getAttribute('data-service')).toBe('shop');
      expect(Number(await marker.getAttribute('data-at'))).toBe(deployS);
      // Drawn at its time on the axis, to the pixel.
      const x = Number(await marker.locator('line').getAttribute('x1'));
      expect(Math.abs(x - axis.svgX(deployS)), path).toBeLessThan(1);
      // And listed under the chart, with what it replaced.
      const row = page.getByTestId('deploy');
      expect(await row.getAttribute('data-at-ms')).toBe(String(deployAtMs));
      expect(await row.locator('td').nth(3).textContent()).toBe('1.0.0');
    }
    await page.goto(`${app.dashboardUrl}/alerts?service=shop`);
    const burn = page.locator('[data-testid="burn-chart"][data-service="shop"]');
    const marker = burn.locator('[data-testid="deploy-marker"]');
    await marker.waitFor({ state: 'attached' });
    expect(Number(await marker.getAttribute('data-at'))).toBe(deployS);
    const axis = await timeAxis(burn.locator('.zoomable'));
    expect(
      Math.abs(Number(await marker.locator('line').getAttribute('x1')) - axis.svgX(deployS)),
    ).toBeLessThan(1);
  });

  it('links a failure group’s release to its deploy: what is new since it', async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    const group = page.locator('[data-testid="failure-group"][data-code="503"]');
    const link = group.getByTestId('group-version');
    expect(await link.textContent()).toBe('2.0.0');
    const href = new URL((await link.getAttribute('href'))!, app.dashboardUrl);
    expect(href.hash).toBe('#deploy-shop-2.0.0');
    expect(href.searchParams.get('state')).toBe('new');
    expect(href.searchParams.get('version')).toBe('2.0.0');
    expect(Date.parse(href.searchParams.get('from')!)).toBe(Math.floor(deployAtMs / 60_000) * 60_000);
    await link.click();
    await page.waitForURL((u) => u.hash === '#deploy-shop-2.0.0');
    await page.getByTestId('groups-total').waitFor();
    // Since the deploy, in 2.0.0: the 503s and the 422s, all new; the 429s were 1.0.0's.
    const codes = await page
      .getByTestId('failure-group')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')).sort());
    expect(codes).toEqual(['422', '503']);
    expect(Number(await page.getByTestId('groups-total').getAttribute('data-failures'))).toBe(15);
    // The page opened on the deploy's row, under the timeline whose range starts at it.
    expect(await page.locator('#deploy-shop-2\\.0\\.0').getAttribute('data-version')).toBe('2.0.0');
  });

  it('gives a link to this view with absolute times, which shows the same window later', async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h&code=503`);
    await page.getByTestId('groups-total').waitFor();
    const shown = await shownRange();
    await page.getByTestId('share-link').click();
    const link = new URL(await page.getByTestId('share-link-url').inputValue());
    expect(link.searchParams.get('range')).toBeNull();
    expect(link.searchParams.get('code')).toBe('503');
    expect(link.searchParams.get('from')).toBe(
      new Date(shown.fromS * 1000).toISOString().replace('.000', ''),
    );
    expect(Date.parse(link.searchParams.get('to')!) / 1000).toBe(shown.toS);
    // Later: once the clock passed the range's last minute, `range=1h` is another window; the link is not.
    await new Promise((r) => setTimeout(r, Math.max(0, shown.toS * 1000 - Date.now()) + 1500));
    await page.goto(`${app.dashboardUrl}/failures?range=1h&code=503`);
    await page.getByTestId('groups-total').waitFor();
    expect((await shownRange()).toS).toBeGreaterThan(shown.toS);
    await page.goto(link.toString());
    await page.getByTestId('groups-total').waitFor();
    expect(await shownRange()).toEqual(shown);
    expect(Number(await page.getByTestId('groups-total').getAttribute('data-failures'))).toBe(10);
  }, 90_000);

  it('filters by code, version, endpoint and message on the Overview, Failures and Dependencies', async () => {
    const timelineTotal = () =>
      page
        .locator('[data-testid="timeline-rows"] td[data-failures]')
        .evaluateAll((tds) => tds.reduce((s, td) => s + Number(td.getAttribute('data-failures')), 0));
    for (const [query, expected] of [
      ['', STEER_TRUTH.all],
      ...Object.entries(STEER_TRUTH.byQuery),
    ] as const) {
      await page.goto(`${app.dashboardUrl}/?range=1h&${query}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const topCodes = await page
        .locator('[data-testid="top-code"]')
        .evaluateAll((rows) => rows.reduce((s, r) => s + Number(r.getAttribute('data-failures')), 0));
      expect({ timeline: await timelineTotal(), topCodes }, `/ ${query}`).toEqual({
        timeline: expected,
        topCodes: expected,
      });
      await page.goto(`${app.dashboardUrl}/failures?range=1h&${query}`);
      await page.getByTestId('groups-total').waitFor();
      expect(
        {
          groups: Number(await page.getByTestId('groups-total').getAttribute('data-failures')),
          timeline: await timelineTotal(),
        },
        `/failures ${query}`,
      ).toEqual({ groups: expected, timeline: expected });
      await page.goto(`${app.dashboardUrl}/dependencies?range=1h&${query}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const edges = await page
        .getByTestId('dependency-edge')
        .evaluateAll((rows) => rows.reduce((s, r) => s + Number(r.getAttribute('data-failures')), 0));
      expect(edges, `/dependencies ${query}`).toBe(expected);
    }
    // Typed into the filter bar, carried in the URL and said in words, lifted in one click.
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    await page.getByTestId('filter-q').fill('card');
    await page.getByTestId('filter-q').press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === 'card');
    await page.getByTestId('failure-filter-q').waitFor();
    const edges = await page.getByTestId('dependency-edge').evaluateAll((rows) =>
      rows.map((r) => ({
        dependency: r.getAttribute('data-dependency'),
        failures: Number(r.getAttribute('data-failures')),
      })),
    );
    expect(edges).toEqual([STEER_TRUTH.cardEdge]);
    // The nav carries it to the Failures page.
    await page.getByRole('link', { name: 'Failures', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/failures' && u.searchParams.get('q') === 'card');
    expect(Number(await page.getByTestId('groups-total').getAttribute('data-failures'))).toBe(5);
    await page.getByTestId('failure-filter-q').getByRole('link').click();
    await page.waitForURL((u) => !u.searchParams.has('q'));
    expect(Number(await page.getByTestId('groups-total').getAttribute('data-failures'))).toBe(
      STEER_TRUTH.all,
    );
    // A search too long to be one is refused with the limit.
    await page.goto(`${app.dashboardUrl}/?range=1h&q=${'x'.repeat(101)}`);
    expect(await page.getByTestId('param-error').textContent()).toContain('at most 100 characters');
  });
});

describe('local time or UTC', () => {
  it('shows times in the reader’s zone when chosen, remembered across a reload, typed and shown 24-hour', async () => {
    // A reader in India (+05:30, no DST) whose browser speaks en-US, a 12-hour locale.
    const browser = await launchChromium({ timezoneId: 'Asia/Kolkata', locale: 'en-US' });
    try {
      const p = await browser.context.newPage();
      const deployRowTime = () => p.getByTestId('deploy').locator('td').first().textContent();
      const pad = (n: number) => String(n).padStart(2, '0');
      const wall = (ms: number) => {
        const d = new Date(ms);
        return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
      };
      const deployFloorS = Math.floor(deployS);
      await p.goto(`${app.dashboardUrl}/?range=1h`);
      await p.getByTestId('deploy').waitFor({ state: 'attached' });
      // UTC until chosen otherwise.
      expect(await p.getByTestId('tz-toggle').getAttribute('data-zone')).toBe('UTC');
      expect(await deployRowTime()).toBe(`${wall(deployFloorS * 1000)} UTC`);
      // Chromium names the zone by its ICU spelling (Asia/Calcutta): the page shows the browser's name.
      const local = await p.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(local);
      await p.getByTestId('tz-local').click();
      await p.locator(`[data-testid="tz-toggle"][data-zone="${local}"]`).waitFor();
      const ist = `${wall((deployFloorS + 5.5 * 3600) * 1000)} +05:30`;
      await expect.poll(deployRowTime).toBe(ist);
      expect(await p.getByTestId('tz-local').getAttribute('aria-pressed')).toBe('true');
      // Remembered: a reload renders on the server in the same zone.
      await p.reload();
      await p.getByTestId('deploy').waitFor({ state: 'attached' });
      expect(await deployRowTime()).toBe(ist);
      // The chart's axis too: its round ticks (timeTicks) labelled in local time, 24-hour.
      const chart = p.getByTestId('timeline-chart');
      const tick = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
      await tick.first().waitFor({ state: 'attached' });
      const domain = [
        Number(await chart.getAttribute('data-from')),
        Number(await chart.getAttribute('data-to')),
      ];
      expect(await tick.allTextContents()).toEqual(
        timeTicks(domain[0]!, domain[1]!).map((t) => wall((t + 5.5 * 3600) * 1000).slice(11, 16)),
      );
      // The custom range shows and takes local wall time, 24-hour: 08:45 UTC is 14:15 in India.
      await p.goto(`${app.dashboardUrl}/?from=2025-06-01T08:45:00Z&to=2025-06-01T10:00:00Z`);
      expect(await p.getByTestId('custom-from').getAttribute('type')).toBe('text');
      expect(await p.getByTestId('custom-from').inputValue()).toBe('2025-06-01 14:15');
      expect(await p.getByTestId('custom-to').inputValue()).toBe('2025-06-01 15:30');
      expect(await p.locator('.custom-range legend').textContent()).toBe(`Custom (${local}, 24-hour)`);
      await p.getByTestId('custom-from').fill('2025-06-01 13:05');
      await p.getByTestId('custom-apply').click();
      await p.waitForURL((u) => u.searchParams.get('from') === '2025-06-01T07:35:00Z');
      // Back to UTC, also remembered.
      await p.getByTestId('tz-utc').click();
      await p.locator('[data-testid="tz-toggle"][data-zone="UTC"]').waitFor();
      await expect.poll(() => p.getByTestId('custom-from').inputValue()).toBe('2025-06-01 07:35');
      await p.goto(`${app.dashboardUrl}/?range=1h`);
      await p.getByTestId('deploy').waitFor({ state: 'attached' });
      expect(await deployRowTime()).toBe(`${wall(deployFloorS * 1000)} UTC`);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
