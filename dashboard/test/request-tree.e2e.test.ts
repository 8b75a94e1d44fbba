import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { sendRequestTree, TREE_ORDER } from './support/send-request-tree';

// Issue 13's request tree: one known request across two services (see send-request-tree.ts) sent
// through the real exporter to a real `npm start`, its tree read in Chromium through the ARIA
// attributes an assistive technology reads.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const ID = 'tree-e2e-1';

interface Item {
  level: number;
  expanded: string | null;
  origin: string | null;
  orphan: boolean;
  text: string;
}

async function items(): Promise<Item[]> {
  return page.locator('[role="tree"] [role="treeitem"]').evaluateAll((els) =>
    els.map((el) => {
      const label = document.getElementById(el.getAttribute('aria-labelledby') ?? '')!;
      return {
        level: Number(el.getAttribute('aria-level')),
        expanded: el.getAttribute('aria-expanded'),
        origin: label.querySelector('[data-testid="failure-origin"]')?.getAttribute('data-origin') ?? null,
        orphan: label.querySelector('[data-testid="span-orphan"]') !== null,
        text: label.textContent ?? '',
      };
    }),
  );
}

beforeAll(async () => {
  session = await startSeeded((otlpUrl) => sendRequestTree(otlpUrl, ID));
  ({ app, page } = session);
  await page.goto(`${app.dashboardUrl}/request?id=${ID}`);
  await page.getByTestId('span-timeline').waitFor();
}, 120_000);

afterAll(() => session?.close());

describe('the request as a tree', () => {
  it('nests every span under its parent across services, siblings in start order', async () => {
    const got = await items();
    expect(got.map((i) => i.level)).toEqual(TREE_ORDER.map((t) => t.level));
    for (const [i, item] of got.entries()) expect(item.text).toContain(TREE_ORDER[i]!.name);
    // The path crosses from shop into ledger under shop's client call.
    expect(got[2]!.text).toContain('ledger');
    expect(got[1]!.text).toContain('shop');
    expect(got.map((i) => i.expanded)).toEqual(['true', 'true', 'true', null, null, null]);
  });

  it('flags the span whose parent never arrived, at the root with a note', async () => {
    const got = await items();
    expect(got.map((i) => i.orphan)).toEqual([false, false, false, false, false, true]);
    expect(got[5]!.text).toContain('feedfacefeedface');
    expect(got[5]!.text).toContain('never arrived');
    expect(await page.getByTestId('orphan-note').textContent()).toContain('1 span is shown at the root');
  });

  it('says which failure is first-hand and which echo it, and links the echo to its origin', async () => {
    const got = await items();
    expect(got.map((i) => i.origin)).toEqual([null, 'propagated', 'propagated', 'first-hand', null, null]);
    const echo = page.locator('[data-origin="propagated"] a').first();
    expect(await echo.textContent()).toContain('INSERT entries');
    // The link selects the echoed span (&span=) and scrolls to its treeitem (#…).
    const href = new URL((await echo.getAttribute('href'))!, app.dashboardUrl);
    const target = page.locator(`[id="${href.hash.slice(1)}"]`);
    expect(await target.getAttribute('data-testid')).toBe('span-row');
    expect(href.searchParams.get('span')).toBe(await target.getAttribute('data-span-id'));
    expect(href.searchParams.get('id')).toBe(ID);
    expect(await page.getByTestId('envelope').count()).toBe(3);
  });

  it('collapses a subtree and expands it again, by click and by key', async () => {
    const root = page.locator('[role="treeitem"][aria-level="1"]').first();
    await root.locator('[data-tree-toggle]').first().click();
    expect(await root.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('[role="treeitem"][aria-level="4"]').isVisible()).toBe(false);
    await root.focus();
    await page.keyboard.press('ArrowRight');
    expect(await root.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('[role="treeitem"][aria-level="4"]').isVisible()).toBe(true);
  });
});
