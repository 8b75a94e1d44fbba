import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { type FaultlineProcess, startFaultline } from './support/faultline-process';
import { type HostileRequest, sendHostileRequest } from './support/send-hostile-spans';

// Spans are attacker-controlled input. Requests whose every shown field is markup, attribute-
// breaking quotes, a javascript: URL, bidirectional overrides or one 64 Ki-character word are sent
// through the real exporter to a real `npm start`, and every page that shows them is loaded in
// Chromium with a trap on dialogs and on a global flag the payloads would set: none may fire.
let app: FaultlineProcess;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
const dialogs: string[] = [];

const XSS = (n: number) => `<img src=x onerror="window.__xss=${n};alert(${n})">`;
const QUOTES = `"'><svg onload=window.__xss=9>`;
const HOSTILE: HostileRequest[] = [
  {
    service: `svc${XSS(1)}`,
    correlationId: `req"><script>window.__xss=2</script>`,
    spanName: `GET /${XSS(3)}`,
    code: 'javascript:window.__xss=4',
    message: `boom ${QUOTES} ${XSS(5)}`,
    raw: JSON.stringify({ body: `<script>window.__xss=6</script>`, href: 'javascript:alert(6)' }),
  },
  {
    service: 'invoice\u202Egnp.exe',
    correlationId: 'req-bidi-\u202E-1',
    spanName: 'POST /pay\u2066',
    code: '500',
    message: `${'W'.repeat(65_536)}`,
    // Within the envelope's raw bounds (3 × 1,000 characters) but longer than a page shows.
    raw: JSON.stringify({ a: 'A'.repeat(1000), b: 'B'.repeat(1000), c: 'C'.repeat(1000) }),
  },
];

async function visit(path: string): Promise<void> {
  await page.goto(`${app.dashboardUrl}${path}`, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle').catch(() => {});
}

async function flag(): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss ?? null);
}

beforeAll(async () => {
  app = await startFaultline();
  for (const r of HOSTILE) await sendHostileRequest(app.otlpUrl, r);
  await waitForInserted(app.otlpUrl);
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.addInitScript(() => {
    for (const name of ['alert', 'confirm', 'prompt'] as const) {
      (window as unknown as Record<string, unknown>)[name] = () => {
        (window as unknown as { __xss?: unknown }).__xss = `called ${name}`;
      };
    }
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('hostile spans render inert', () => {
  const pages = ['/', '/?range=1h&sli=calls', '/workflows', '/retries', '/request?id=', '/sql'];
  for (const path of pages) {
    it(`${path}: no script runs, no dialog opens`, async () => {
      await visit(
        path === '/request?id=' ? `/request?id=${encodeURIComponent(HOSTILE[0]!.correlationId)}` : path,
      );
      expect(await flag()).toBeNull();
      expect(dialogs).toEqual([]);
      // No link built from span data has a javascript: target.
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.filter((h) => /^\s*javascript:/i.test(h))).toEqual([]);
    }, 60_000);
  }

  it('a workflow whose correlation id holds markup opens, its markup shown as text', async () => {
    await visit('/workflows');
    const link = page.locator(`a[href="/request?id=${encodeURIComponent(HOSTILE[0]!.correlationId)}"]`);
    await expect(link.count()).resolves.toBe(1);
    await link.click();
    await page.getByTestId('span-timeline').waitFor();
    expect(await page.getByTestId('span-row').count()).toBe(2);
    const text = (await page.getByTestId('span-timeline').textContent()) ?? '';
    expect(text).toContain(`GET /${XSS(3)}`);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await flag()).toBeNull();
  }, 60_000);

  it('bidirectional overrides in names are shown neutralised, and a 64 Ki-character word arrives cut and wraps', async () => {
    await visit(`/request?id=${encodeURIComponent(HOSTILE[1]!.correlationId)}`);
    const text = (await page.getByTestId('span-timeline').textContent()) ?? '';
    expect(text).toContain('invoice⟨U+202E⟩gnp.exe');
    expect(text).toContain('POST /pay⟨U+2066⟩');
    expect(text).not.toContain('\u202E');
    // The collector bounds a span's own message as the preload does (512 characters), so the
    // 64 Ki-character word arrives cut, and the page shows no more of it than that.
    const summary = (await page.getByTestId('envelope').first().locator('summary').textContent()) ?? '';
    expect(summary).toContain(`${'W'.repeat(511)}…`);
    expect(summary).not.toContain('W'.repeat(512));
    // Raw longer than the page shows: cut, with its length and the uncut value one click away.
    const note = page.getByTestId('cut-note').first();
    expect(await note.textContent()).toMatch(/2,000 of 3,0\d\d characters shown; full value/);
    expect(await note.locator('a').getAttribute('href')).toMatch(
      /^\/sql\?query=span_detail&p\.trace_id=[0-9a-f]{32}&p\.span_id=[0-9a-f]{16}$/,
    );
    const html = await page.content();
    expect(html.length).toBeLessThan(200_000);
    // The page is no wider than the window: the word wraps.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1400);
  }, 60_000);

  it('the span panel (&span=) of a hostile span renders inert, neutralised, with exact ids in its links', async () => {
    for (const r of HOSTILE) {
      await visit(`/request?id=${encodeURIComponent(r.correlationId)}`);
      const spanId = await page
        .getByTestId('envelope')
        .first()
        .evaluate((el) => el.closest('[role="treeitem"]')!.getAttribute('data-span-id')!);
      await visit(`/request?${new URLSearchParams({ id: r.correlationId, span: spanId })}`);
      await page.getByTestId('span-panel').waitFor();
      expect(await flag()).toBeNull();
      expect(dialogs).toEqual([]);
      const hrefs = await page
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(hrefs.filter((h) => /^\s*javascript:/i.test(h))).toEqual([]);
      const corr = await page.getByTestId('span-correlation-link').getAttribute('href');
      expect(new URL(corr!, app.dashboardUrl).searchParams.get('id')).toBe(r.correlationId);
    }
    const text = (await page.getByTestId('span-panel').textContent()) ?? '';
    expect(text).toContain('invoice⟨U+202E⟩gnp.exe');
    expect(text).toContain('POST /pay⟨U+2066⟩');
    expect(text).not.toMatch(/[\u202E\u2066]/);
    expect((await page.content()).length).toBeLessThan(200_000);
  }, 60_000);
});
