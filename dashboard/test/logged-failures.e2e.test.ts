import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimeNs } from '../src/lib/format-time-ns';
import { ARTIFACTS } from './support/browser';
import type { FaultlineProcess } from './support/faultline-process';
import { layoutFaults } from './support/layout-faults';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { type LoggedFailuresTruth, sendLoggedFailures } from './support/send-logged-failures';

// Issue 33 on the pages: failures that arrive as log records (send-logged-failures.ts: a Java
// service's deadlock logged in its failed span, an INFO line, and a worker's failure only a record
// shows), through the real exporters into a real `npm start`, read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
let truth: LoggedFailuresTruth;

interface Shown {
  severity: string | null;
  cls: string | null;
  text: string;
}

/** The records listed under the tree item whose call reads `call`, or above the tree. */
async function recordsOf(scope: string): Promise<Shown[]> {
  return page
    .locator(`${scope} > div > [data-testid="span-logs"] [data-testid="span-log"]`)
    .evaluateAll((els) =>
      els.map((el) => ({
        severity: el.getAttribute('data-severity'),
        cls: el.getAttribute('data-class'),
        text: el.textContent ?? '',
      })),
    );
}

const timeOf = (ms: number) => formatTimeNs(`${BigInt(ms) * 1_000_000n}`).slice(11);

beforeAll(async () => {
  session = await startSeeded(async (otlpUrl) => {
    truth = await sendLoggedFailures(otlpUrl);
  });
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

describe('log records in the request tree', () => {
  beforeAll(async () => {
    await page.goto(`${app.dashboardUrl}/request?id=${truth.traceId}`);
    await page.getByTestId('span-timeline').waitFor();
  });

  it('lists each record under the span it was logged in: time, severity, exception, class', async () => {
    const items = page.locator('[role="tree"] [role="treeitem"]');
    expect(await items.count()).toBe(2);
    const server = '[role="treeitem"][aria-level="1"]';
    const client = '[role="treeitem"][aria-level="2"]';
    expect(await page.locator(`${server} >> [data-testid="span-call"]`).first().textContent()).toContain(
      '/orders',
    );
    expect(await recordsOf(server)).toEqual([
      { severity: 'INFO', cls: null, text: `${timeOf(truth.acceptedAt)} INFO order accepted` },
    ]);
    const [deadlock, ...more] = await recordsOf(client);
    expect(more).toEqual([]);
    expect(deadlock).toMatchObject({ severity: 'ERROR', cls: 'transient' });
    expect(deadlock!.text).toContain(timeOf(truth.deadlockAt));
    expect(deadlock!.text).toContain('org.postgresql.util.PSQLException: ERROR: deadlock detected');
    expect(deadlock!.text).toContain('40P01');
    // The body beside the exception, as the service logged it.
    expect(deadlock!.text).toContain('Reserving stock failed');
    // The span's own envelope is the record's: one failure, first-hand.
    expect(await page.locator(`${client} [data-testid="failure-origin"]`).getAttribute('data-origin')).toBe(
      'first-hand',
    );
  });

  it('lists the record logged outside any span above the tree', async () => {
    const unplaced = page.getByTestId('request-logs-unplaced');
    expect(await unplaced.locator('p').textContent()).toContain(
      '1 log record of this request with no span shown',
    );
    const shown = await unplaced
      .locator('[data-testid="span-log"]')
      .evaluateAll((els) =>
        els.map((el) => ({ cls: el.getAttribute('data-class'), text: el.textContent ?? '' })),
      );
    expect(shown).toHaveLength(1);
    expect(shown[0]!.cls).toBe('transient');
    expect(shown[0]!.text).toContain(timeOf(truth.workerAt));
    expect(shown[0]!.text).toContain('ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:5672');
  });
});

describe('log records at 1280, 1440 and 1920 px', () => {
  it.each([1280, 1440, 1920])('the request and the failures read whole at %i px', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path, ready] of [
      ['request-logs', `/request?id=${truth.traceId}`, 'span-timeline'],
      ['failures-logs', '/failures?range=1h', 'failure-groups'],
    ] as const) {
      await page.goto(`${app.dashboardUrl}${path}`);
      await page.getByTestId(ready).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
      expect(await layoutFaults(page, 'main table, main [role="tree"], main h2'), `${path}`).toEqual({
        broken: [],
        overflowPx: 0,
      });
    }
  });
});

describe('failure groups from log records', () => {
  beforeAll(async () => {
    await page.goto(`${app.dashboardUrl}/failures?range=1h`);
    await page.getByTestId('failure-groups').waitFor();
  });

  const group = (service: string) => page.locator(`[data-testid="failure-group"][data-service="${service}"]`);

  it('says a group’s failures came from a log record, and not of the span the record informed', async () => {
    const worker = group('orders-worker');
    expect(await worker.count()).toBe(1);
    expect(await worker.getAttribute('data-code')).toBe('ECONNREFUSED');
    expect(await worker.getAttribute('data-failures')).toBe('1');
    expect(await worker.getByTestId('group-from-logs').textContent()).toBe('from a log record');
    const api = group('orders-api');
    expect(await api.count()).toBe(1);
    expect(await api.getAttribute('data-code')).toBe('40P01');
    expect(await api.getAttribute('data-class')).toBe('transient');
    expect(await api.getAttribute('data-failures')).toBe('1');
    expect(await api.getByTestId('group-from-logs').count()).toBe(0);
  });

  it('opens the request of the record-only failure from its example', async () => {
    await group('orders-worker').getByTestId('group-example').click();
    await page.getByTestId('span-timeline').waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/request');
    expect(url.searchParams.get('id')).toBe(truth.traceId);
    expect(url.searchParams.get('span')).toBeNull();
    expect(await page.getByTestId('request-logs-unplaced').textContent()).toContain(
      'worker could not reach the queue',
    );
  });
});
