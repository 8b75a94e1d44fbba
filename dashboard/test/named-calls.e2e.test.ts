import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { layoutFaults } from './support/layout-faults';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { sendDependencyCalls } from './support/send-dependency-calls';
import {
  BIDI_SHOWN,
  INVENTORY_PORT,
  NAMED_ROWS,
  QUERY_SECRET,
  sendNamedCalls,
} from './support/send-named-calls';

// Issue 30: the request tree names each call in its row (method and path, statement summary, RPC
// method, messaging destination, tool) with the service that answered it, and the Dependencies page
// and service map name a host:port dependency by the service that answered its calls. The named
// request of send-named-calls.ts beside the multi-service shop of send-dependency-calls.ts (the
// demo-like rest of the pages), sent through the real exporter to a real `npm start`, read in
// Chromium at 1280, 1440 and 1920 px.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const ID = 'named-calls-1';
const WIDTHS = [1280, 1440, 1920];
const SHOTS = join(tmpdir(), 'faultline-named-calls');
const HOST = `127.0.0.1:${INVENTORY_PORT}`;

beforeAll(async () => {
  session = await startSeeded(async (otlpUrl) => {
    await sendDependencyCalls(otlpUrl);
    await sendNamedCalls(otlpUrl, ID);
  });
  ({ app, page } = session);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.dashboardUrl });
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(() => session?.close());

async function openRequest(width: number): Promise<void> {
  await page.setViewportSize({ width, height: 1000 });
  await page.goto(`${app.dashboardUrl}/request?id=${ID}`);
  await page.getByTestId('span-timeline').waitFor();
}

/** Each row as a reader sees it: the texts, whether each is cut short, and its hover title. */
async function rows() {
  return page.locator('[role="tree"] [role="treeitem"]').evaluateAll((items) =>
    items.map((item) => {
      const line = item.querySelector(':scope > .timeline-row .span-call-line') as HTMLElement;
      const part = (id: string) => line.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
      const shown = (el: HTMLElement | null) => {
        if (!el) return null;
        const box = el.getBoundingClientRect();
        // Shown whole: laid out, and not cut by its ellipsis.
        return {
          text: (el.textContent ?? '').trim(),
          whole: box.width > 0 && el.scrollWidth <= el.clientWidth + 1,
        };
      };
      const call = part('span-call');
      return {
        line: line.textContent ?? '',
        service: shown(part('span-service')),
        call: shown(call),
        title: call?.getAttribute('title') ?? null,
        copy: line.querySelector('[data-copy-call]')?.getAttribute('data-copy-call') ?? null,
        peer: shown(part('span-peer')),
        peerSource: part('span-peer')?.getAttribute('data-peer-source') ?? null,
      };
    }),
  );
}

// Attribute values and stack traces are shown whole, wrapped where they must be: not words.
const WHOLE_VALUES = '.span-value, pre';

describe('the request tree names each call', () => {
  it('shows method and path, statement summary, RPC method, destination and tool in each row, with who answered', async () => {
    await openRequest(1440);
    const got = await rows();
    expect(got.map((r) => r.call?.text)).toEqual(NAMED_ROWS.map((r) => r.call));
    expect(got.map((r) => r.service?.text)).toEqual(NAMED_ROWS.map((r) => r.service));
    expect(got.map((r) => r.peer?.text.replace(/^→\s*/, '') ?? null)).toEqual(
      NAMED_ROWS.map((r) => ('peer' in r ? r.peer : null)),
    );
    expect(got.map((r) => r.peerSource)).toEqual(
      NAMED_ROWS.map((r) => ('peerSource' in r ? r.peerSource : null)),
    );
    for (const [i, r] of got.entries()) {
      // Visible whole in the row, not only on hover: the reader need not click to learn the call.
      expect(r.call?.whole, `${r.line}: the call is cut`).toBe(true);
      expect(r.service?.whole, `${r.line}: the service is cut`).toBe(true);
      if (r.peer) expect(r.peer.whole, `${r.line}: the peer is cut`).toBe(true);
      expect(r.line).toContain(NAMED_ROWS[i]!.call);
      // The full name on hover (with the span's own name when it differs) and on the copy button.
      expect(r.title?.split('\n')[0]).toBe(NAMED_ROWS[i]!.call);
      expect(r.copy).toBe(NAMED_ROWS[i]!.call);
    }
    // The failing calls by host:port read as what they were, answered by inventory.
    expect(got[1]!.line).toMatch(/checkout\s*Client\s*GET \/429.*→ inventory/);
    expect(got[8]!.line).toMatch(/GET \/503.*→ inventory/);
    expect(got[1]!.title).toBe('GET /429\nspan name: GET');
  });

  it('never shows a query string, a statement’s values or a raw bidi override', async () => {
    await openRequest(1440);
    const html = await page.content();
    expect(html).not.toContain(QUERY_SECRET);
    expect(html).not.toContain('api_key');
    expect(html).not.toContain('4242');
    const text = await page.locator('main').textContent();
    expect(text).not.toContain('\u202E');
    expect(text).toContain(BIDI_SHOWN);
    expect(await page.locator('[data-testid="span-service"]', { hasText: BIDI_SHOWN }).count()).toBe(1);
  });

  it('copies a row’s call name by its button and by the c key', async () => {
    await openRequest(1440);
    const row = page.locator('[role="treeitem"]').nth(3);
    await row.locator(':scope > .timeline-row').hover();
    await row.locator(':scope > .timeline-row [data-copy-call]').click();
    await page.waitForFunction(() => document.querySelector('[data-copied]') !== null);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('INSERT orders');
    await page.locator('[role="treeitem"]').nth(4).focus();
    await page.keyboard.press('c');
    await page.waitForFunction(
      async () => (await navigator.clipboard.readText()) === 'shop.Inventory/Reserve',
    );
    // Copying selects nothing: the URL has no span.
    expect(new URL(page.url()).searchParams.get('span')).toBeNull();
  });

  for (const width of WIDTHS) {
    it(`reads at ${width} px: no word broken mid-word, no page wider than the window`, async () => {
      await openRequest(width);
      await page.screenshot({ path: join(SHOTS, `request-${width}.png`), fullPage: true });
      expect(await layoutFaults(page, '[data-testid="span-timeline"]', WHOLE_VALUES)).toEqual({
        broken: [],
        overflowPx: 0,
      });
      // With a span selected, the panel takes a third of the width: the calls still read whole.
      await page.goto(
        `${app.dashboardUrl}/request?id=${ID}&span=${await page.locator('[role="treeitem"]').nth(1).getAttribute('data-span-id')}`,
      );
      await page.getByTestId('span-panel').waitFor();
      await page.screenshot({ path: join(SHOTS, `request-panel-${width}.png`), fullPage: true });
      const got = await rows();
      // Narrower beside the panel: a long name may be cut with an ellipsis (whole on hover and
      // copied whole), the short ones never are.
      for (const r of got) {
        if (!r.call?.whole) expect(r.title?.split('\n')[0]).toBe(r.copy);
        if ((r.copy ?? '').length <= 16) expect(r.call?.whole, `${r.line}: the call is cut`).toBe(true);
      }
      expect(await layoutFaults(page, '[data-testid="span-timeline"]', WHOLE_VALUES)).toEqual({
        broken: [],
        overflowPx: 0,
      });
    });
  }
});

describe('dependencies named by the service that answered', () => {
  const edge = (dependency: string) =>
    page.locator(
      `tr[data-testid="dependency-edge"][data-service="checkout"][data-dependency="${dependency}"]`,
    );

  /** Where the host:port stands against the callee's name: on its line after it, or under it. */
  async function besideOrUnder(row: ReturnType<typeof edge>): Promise<string> {
    const [a, b] = [
      await row.getByTestId('edge-callee').boundingBox(),
      await row.getByTestId('edge-address').boundingBox(),
    ];
    if (!a || !b || a.width === 0 || b.width === 0) return 'hidden';
    if (Math.abs(a.y + a.height - (b.y + b.height)) < 4 && b.x >= a.x + a.width) return 'beside';
    if (b.y >= a.y + a.height - 1) return 'under';
    return 'elsewhere';
  }

  async function openDependencies(width: number): Promise<void> {
    await page.setViewportSize({ width, height: 1000 });
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    await page.getByTestId('dependencies').waitFor();
    await page.locator('.react-flow__edge').first().waitFor();
  }

  it('reads "inventory" with its host:port beside it, in the table and on the map', async () => {
    await openDependencies(1440);
    const row = edge(HOST);
    expect(await row.getAttribute('data-callee')).toBe('inventory');
    const callee = row.getByTestId('edge-callee');
    const address = row.getByTestId('edge-address');
    expect(await callee.textContent()).toBe('inventory');
    expect(await address.textContent()).toBe(HOST);
    expect(await besideOrUnder(row)).toBe('beside');
    // Still filtered by what the spans store: the host:port.
    const href = new URL((await row.getByTestId('edge-link').getAttribute('href')) ?? '', app.dashboardUrl);
    expect(href.searchParams.get('dependency')).toBe(HOST);
    // An edge whose callee reported under its own name keeps that one name.
    expect(await edge('inventory').getAttribute('data-callee')).toBeNull();
    expect(await edge('inventory').getByTestId('edge-address').count()).toBe(0);
    // The gRPC service's own name carries a bidi override: shown escaped.
    const rpc = edge('shop.Inventory/Reserve');
    expect(await rpc.getByTestId('edge-callee').textContent()).toBe(BIDI_SHOWN);
    expect(await rpc.getByTestId('edge-address').textContent()).toBe('shop.Inventory/Reserve');

    // The map: one inventory node, called by name and as host:port, one line from checkout to it.
    const inventory = page
      .locator('.react-flow__node')
      .filter({ has: page.locator('.map-node-name', { hasText: /^inventory$/ }) });
    expect(await inventory.count()).toBe(1);
    expect(await inventory.getByTestId('map-node-address').textContent()).toBe(HOST);
    const ids = await page
      .locator('.react-flow__edge')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(ids).toContain('checkout → inventory');
    expect(ids).not.toContain(`checkout → ${HOST}`);
    expect(await page.locator('.react-flow__node', { hasText: HOST }).count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toContain('\u202E');
  });

  for (const width of WIDTHS) {
    it(`reads at ${width} px: no word broken mid-word, no page wider than the window`, async () => {
      await openDependencies(width);
      await page.screenshot({ path: join(SHOTS, `dependencies-${width}.png`), fullPage: true });
      // Beside it where the column has room, under it where it has not: never cut, never hidden.
      expect(['beside', 'under']).toContain(await besideOrUnder(edge(HOST)));
      if (width >= 1440) expect(await besideOrUnder(edge(HOST))).toBe('beside');
      for (const el of await page
        .locator('[data-testid="dependencies"] td.dep-name :is(code, .dep-address)')
        .all())
        expect(await el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
      expect(await layoutFaults(page, '[data-testid="dependencies"]', WHOLE_VALUES)).toEqual({
        broken: [],
        overflowPx: 0,
      });
    });
  }
});
