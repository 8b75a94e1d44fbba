import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { STOCK_PORT, sendMissingCallee, VENDOR_PORT } from './support/send-missing-callee';

// Issue 29: a first-hand decision that rests on a callee span its own sampler dropped is said on
// the page. send-missing-callee.ts: shop's two failed calls to stock, one answered by stock's kept
// (th:c) span, one with stock's span sampled out; and a vendor that never reports spans.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;

beforeAll(async () => {
  session = await startSeeded(sendMissingCallee);
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

/** The peer part of each call row: its text, where it came from, the note, the hover title. */
async function peers(id: string) {
  await page.goto(`${app.dashboardUrl}/request?id=${id}`);
  await page.getByTestId('span-timeline').waitFor();
  return page.getByTestId('span-peer').evaluateAll((els) =>
    els.map((el) => ({
      text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
      source: el.getAttribute('data-peer-source'),
      title: el.getAttribute('title') ?? '',
    })),
  );
}

describe('a call whose callee span was sampled out', () => {
  it('reads the callee that answered when its span is under the call', async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await peers('kept-1')).toEqual([
        { text: '→ stock', source: 'callee', title: 'answered by stock' },
      ]);
    }
  });

  it('names the service that answers there, says its span is missing and that first-hand rests on it', async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      const got = await peers('dropped-1');
      expect(got.map(({ text, source }) => ({ text, source }))).toEqual([
        { text: '→ stock (no span: sampled out?) · first-hand rests on it', source: 'missing-callee' },
        // Nobody reports answering at the vendor's port: the call keeps the name it dialed.
        { text: `→ 127.0.0.1:${VENDOR_PORT}`, source: 'caller' },
      ]);
      // stock kept 1 of its 4 requests' spans (th:c): about 25.0% of its traces.
      expect(got[0]!.title).toBe(
        `stock answers at 127.0.0.1:${STOCK_PORT} but sent no span for this call; stock keeps about 25.0% of its traces, so its span was likely sampled out. The failure is counted first-hand on this call: whether it was stock's own cannot be seen without that span.`,
      );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
});

describe('an edge whose callee samples', () => {
  it('says beside its first-hand failures how much of its traffic the callee keeps', async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
      const edge = page.locator(
        `tr[data-testid="dependency-edge"][data-service="shop"][data-dependency="127.0.0.1:${STOCK_PORT}"]`,
      );
      // Of shop's two failed calls to stock, the one stock's failed span answered is its echo; the
      // other, whose stock span was dropped, counts first-hand here: 1, beside the note.
      await expect(edge.getByTestId('edge-failures').textContent()).resolves.toBe('1');
      await expect(edge.getByTestId('edge-unsampled-callee').textContent()).resolves.toBe(
        'callee sampled 25.0%',
      );
      const vendor = page.locator(
        `tr[data-testid="dependency-edge"][data-service="shop"][data-dependency="127.0.0.1:${VENDOR_PORT}"]`,
      );
      await expect(vendor.getByTestId('edge-unsampled-callee').count()).resolves.toBe(0);
    }
  });
});
