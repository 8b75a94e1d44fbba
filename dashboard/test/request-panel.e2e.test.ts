import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from './support/browser';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import {
  CRITICAL_NAMES,
  CRITICAL_SPANS,
  LONG_BODY,
  sendCriticalRequest,
} from './support/send-critical-request';

// Issue 13's request page, second part: the selected span's panel and the critical path, on a
// known checkout across three services (send-critical-request.ts) sent through the real exporter
// to a real `npm start`, read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;
const ID = 'critical-e2e-1';
const PLANTED_MARK = 'PLANTED';

/** Span id of each span by name, read from the tree (span ids are random per run). */
async function spanIds(): Promise<Map<string, string>> {
  const pairs = await page
    .locator('[role="treeitem"]')
    .evaluateAll((els) =>
      els.map((el) => [
        el.querySelector('[data-span-select]')?.getAttribute('data-span-name') ?? '',
        el.getAttribute('data-span-id') ?? '',
      ]),
    );
  return new Map(pairs as [string, string][]);
}

/** A span's treeitem, by its place in the display order (the first test checks that order). */
function item(name: string) {
  return page.locator('[role="treeitem"]').nth(CRITICAL_SPANS.findIndex((s) => s[0] === name));
}

const panel = () => page.getByRole('complementary', { name: /^Span: / });
/** Waits for the panel of one span: its accessible name is its heading. */
const panelOf = (title: string) => page.getByRole('complementary', { name: title }).waitFor();

/** A row of one of the panel's tables by key: its shown value. */
async function value(table: string, key: string): Promise<string> {
  return (await panel().getByTestId(table).locator(`tr[data-key="${key}"] td`).first().textContent()) ?? '';
}

async function open(spanName?: string) {
  const ids = spanName ? await spanIds() : undefined;
  const q = new URLSearchParams({ id: ID });
  if (spanName) q.set('span', ids!.get(spanName)!);
  await page.goto(`${app.dashboardUrl}/request?${q.toString()}`);
  await page.getByTestId('span-timeline').waitFor();
}

beforeAll(async () => {
  session = await startSeeded((otlpUrl) => sendCriticalRequest(otlpUrl, ID));
  ({ app, page } = session);
  await open();
}, 120_000);

afterAll(() => session?.close());

describe('the critical path', () => {
  it('marks exactly the spans the scenario’s timing makes critical, for sight and for assistive tech', async () => {
    const rows = await page.locator('[role="treeitem"]').evaluateAll((els) =>
      els.map((el) => {
        const label = document.getElementById(el.getAttribute('aria-labelledby') ?? '')!;
        return {
          // The span's own name (the row shows the call it made: method and path, statement…).
          name: el.querySelector('[data-span-select]')?.getAttribute('data-span-name') ?? '',
          critical: el.getAttribute('data-critical') === 'true',
          // What a screen reader announces for the item: its label, badge included.
          announced: label.textContent ?? '',
        };
      }),
    );
    expect(rows.map((r) => r.name)).toEqual(CRITICAL_SPANS.map((s) => s[0]));
    expect(
      rows
        .filter((r) => r.critical)
        .map((r) => r.name)
        .sort(),
    ).toEqual([...CRITICAL_NAMES].sort());
    for (const r of rows) expect(r.announced.includes('critical path')).toBe(r.critical);
    expect(await page.getByTestId('critical-note').textContent()).toContain(
      'the 9 spans the request waited on',
    );
  });
});

describe('the selected span’s panel', () => {
  it('opens from a click on the row, as a link that keeps the request', async () => {
    await item('POST orders').locator('.timeline-track').first().click();
    await panel().waitFor();
    const ids = await spanIds();
    const url = new URL(page.url());
    expect([url.searchParams.get('id'), url.searchParams.get('span')]).toEqual([ID, ids.get('POST orders')]);
    expect(await panel().getByRole('heading', { level: 2 }).textContent()).toBe(
      'Span: gateway · POST orders',
    );
    expect(await item('POST orders').getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('[role="treeitem"][aria-selected="true"]').count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: 'Details of' }).textContent()).toBe(
      'Details of gateway POST /orders shown beside the tree.',
    );
  });

  it('shows the attributes with the planted credentials redacted, and cuts a long value with a full-value link', async () => {
    expect(await value('span-attributes', 'http.request.header.authorization')).toBe('[REDACTED]');
    const url = await value('span-attributes', 'url.full');
    expect(url).toContain('api_key=[REDACTED]');
    expect(url).toContain('cart=42');
    expect(await value('span-attributes', 'http.request.method')).toBe('POST');
    const body = await value('span-attributes', 'http.request.body');
    expect(body).not.toContain('TAILMARK');
    expect(body).toContain(`2,000 of ${LONG_BODY.length.toLocaleString('en-US')} characters shown`);
    const full = panel().getByTestId('span-attributes').locator('tr[data-key="http.request.body"] a');
    expect(await full.getAttribute('href')).toMatch(
      /^\/sql\?query=span_detail&p\.trace_id=[0-9a-f]{32}&p\.span_id=/,
    );
    expect(await page.content()).not.toContain(PLANTED_MARK);
  });

  it('selects by Enter and by Space on the focused treeitem', async () => {
    await item('UPDATE users').focus();
    await page.keyboard.press('Enter');
    await panelOf('Span: orders · UPDATE users');
    expect(await value('span-attributes', 'db.statement')).toBe(
      "UPDATE users SET password='[REDACTED]' WHERE id = 7",
    );
    await item('authorize').focus();
    await page.keyboard.press(' ');
    await panelOf('Span: gateway · authorize');
    expect(await panel().getByTestId('span-critical').textContent()).toMatch(/^yes: 10\.0 ms/);
    expect(await page.content()).not.toContain(PLANTED_MARK);
  });

  it('opens from a deep link (&span=) after a reload, with events, the exception and the resource, redacted', async () => {
    await open('stripe.charges.create');
    const p = panel();
    expect(await p.getByRole('heading', { level: 2 }).textContent()).toBe(
      'Span: payments · stripe.charges.create',
    );
    expect(await item('stripe.charges.create').getAttribute('aria-selected')).toBe('true');
    const events = p.getByTestId('span-event');
    expect(await events.evaluateAll((els) => els.map((e) => e.getAttribute('data-event-name')))).toEqual([
      'exception',
      'retry.scheduled',
    ]);
    // recordException at +60 ms of a span that started at +36 ms; the retry event at +65 ms.
    expect(await events.nth(0).textContent()).toContain('+24.0 ms');
    expect(await events.nth(1).textContent()).toContain('+29.0 ms');
    const exception = (await p.getByTestId('span-exception').textContent()) ?? '';
    expect(exception).toContain('StripeAPIError');
    expect(exception).toContain('card service refused login password=[REDACTED] for merchant 42');
    expect(await p.getByTestId('span-stacktrace').textContent()).toContain('password=[REDACTED]');
    const retry = p.getByTestId('span-event-attributes').last();
    expect(await retry.locator('tr[data-key="retry.attempt"] td').textContent()).toBe('2');
    expect(await value('span-resource', 'service.name')).toBe('payments');
    expect(await value('span-resource', 'service.version')).toBe('2.4.1');
    expect(await value('span-resource', 'payments.vault.url')).toBe(
      'https://svc:[REDACTED]@vault.internal/v1',
    );
    const envelope = p.getByTestId('span-panel-envelope');
    for (const [k, v] of [
      ['class', 'transient'],
      ['source', 'sdk'],
      ['code', 'api_error'],
      ['message', 'upstream unavailable'],
      ['retryable', 'true'],
      ['retry_after', '2'],
      ['correlation_id', ID],
    ])
      expect([k, await envelope.locator(`tr[data-key="${k}"] td`).textContent()]).toEqual([k, v]);
    expect(await p.getByTestId('span-panel-raw').textContent()).toContain('req_e2e_1');
    expect(await envelope.textContent()).toContain('first-hand failure');
    expect(await p.getByTestId('span-duration').textContent()).toBe('34.0 ms');
    expect(await p.getByTestId('span-status').textContent()).toBe('Error: upstream unavailable');
    expect(await page.content()).not.toContain(PLANTED_MARK);
    await page.screenshot({ path: join(ARTIFACTS, 'request-panel.png'), fullPage: true });
  });

  it('links a propagated failure to the failure it echoes, and selects it', async () => {
    await open('POST payments');
    await panel().getByTestId('span-echoes').getByRole('link').click();
    await panelOf('Span: payments · stripe.charges.create');
    expect(new URL(page.url()).searchParams.get('span')).toBe((await spanIds()).get('stripe.charges.create'));
    // The tree's own echo note selects the same span.
    await open();
    // A treeitem's own row comes before its children's: the first echo link is its own.
    const echo = item('POST /charge').locator('[data-testid="echo-link"]').first();
    await echo.click();
    await panelOf('Span: payments · stripe.charges.create');
  });

  it('links the trace id and the correlation id to this same request', async () => {
    await open('POST /charge');
    const ids = await spanIds();
    const traceHref = (await panel().getByTestId('span-trace-link').getAttribute('href'))!;
    expect(traceHref).toMatch(/^\/request\?id=[0-9a-f]{32}$/);
    expect(await panel().getByTestId('span-correlation-link').getAttribute('href')).toBe(`/request?id=${ID}`);
    await panel().getByTestId('span-trace-link').click();
    await page.waitForURL((u) => u.searchParams.get('id') !== ID);
    await page.getByTestId('span-timeline').waitFor();
    // The same eleven spans, found by trace id this time.
    expect([...(await spanIds()).entries()]).toEqual([...ids.entries()]);
    expect(await page.getByRole('complementary').count()).toBe(0);
  });
});
