import { join } from 'node:path';
import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readBudget,
  readFirstFailures,
  readHeadline,
  readMatrix,
  readNumber,
  readTopCodes,
} from './ground-truth/page-numbers';
import { runScenario, type ScenarioRun } from './ground-truth/run-scenario';
import { REQUESTS, SERVICES, TOTALS } from './ground-truth/scenario';
import { ARTIFACTS, launchChromium } from './support/browser';
import { type FaultlineProcess, minutesAround, startFaultline } from './support/faultline-process';
import { consoleHeaders } from './support/sql-api';

// Issue #9's proof: twelve hand-annotated requests through three preloaded services (see
// ground-truth/scenario.ts) into a real Faultline; every number the pages show must equal the
// hand-written ground truth. Nothing below recomputes a number with Faultline's own rules.
let app: FaultlineProcess;
let run: ScenarioRun;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let fromS: number;
let toS: number;

const range = () => `from=${fromS}&to=${toS}`;
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

beforeAll(async () => {
  const startS = Math.floor(Date.now() / 1000);
  app = await startFaultline();
  run = await runScenario(app.otlpUrl);
  // The services have exited, so every span was accepted; now wait until it is stored.
  await waitForInserted(app.otlpUrl);
  ({ fromS, toS } = minutesAround(startS));
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the fixture', () => {
  it('answered every request as scenario.ts says', () => {
    expect(run.statuses).toEqual(REQUESTS.map((r) => r.status));
  });

  it('made the upstream calls scenario.ts counts', () => {
    const answers = (n: number, target: string) =>
      run.hits
        .filter((h) => h.correlationId === `${run.prefix}-${n}` && h.target === target)
        .map((h) => h.status);
    for (const n of [6, 11]) expect(answers(n, '/v1/stock?fault=503&times=3')).toEqual([503, 503, 503, 200]);
    expect(answers(7, '/v1/coupons?fault=400')).toEqual([400, 400]);
    expect(answers(9, '/v1/charges?fault=ok_false')).toEqual([200]);
    expect(answers(8, 'aws PutItem fl_gt_throttled')).toEqual([400, 200]);
    expect(answers(1, 'aws PutItem fl_gt_receipts')).toEqual([200]);
    expect(answers(1, '/v1/charges')).toEqual([200]);
  });

  it('has totals that add up from its per-request rows (a check of the hand-written table)', () => {
    expect(REQUESTS.length).toBe(TOTALS.requests);
    expect(REQUESTS.filter((r) => r.status >= 400).length).toBe(TOTALS.failedRequests);
    for (const s of SERVICES) {
      expect(sum(REQUESTS.map((r) => r.calls[s]))).toBe(TOTALS.calls[s]);
      expect(
        sum(REQUESTS.flatMap((r) => r.firstHand.filter((f) => f.service === s).map((f) => f.count))),
      ).toBe(TOTALS.firstHand[s]);
      expect(sum(REQUESTS.map((r) => r.propagated[s]))).toBe(TOTALS.propagated[s]);
    }
    expect(sum(Object.values(TOTALS.calls))).toBe(TOTALS.totalCalls);
    expect(sum(Object.values(TOTALS.matrix))).toBe(TOTALS.totalFirstHand);
    expect(sum(Object.values(TOTALS.firstHandWithoutValidation))).toBe(
      TOTALS.totalFirstHandWithoutValidation,
    );
    expect(sum(Object.values(TOTALS.codes))).toBe(TOTALS.totalFirstHand);
    expect(sum(Object.values(TOTALS.firstFailures))).toBe(TOTALS.failedRequests);
    expect(sum(REQUESTS.map((r) => r.retries))).toBe(TOTALS.retries);
    expect(sum(REQUESTS.map((r) => r.misrouted))).toBe(TOTALS.misrouted);
  });
});

describe('overview', () => {
  it('shows first-hand failures by class × source and the top pair', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}`);
    await page.getByTestId('headline').waitFor();
    await shot('ground-truth-overview');
    expect(await readMatrix(page)).toEqual(TOTALS.matrix);
    expect(await readHeadline(page)).toEqual(TOTALS.headline);
  });

  it('totals the first-hand failures it counts: without caller faults by default, all with them', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}`);
    expect(await readNumber(page, 'total-failures')).toBe(TOTALS.totalFirstHandWithoutValidation);
    await page.goto(`${app.dashboardUrl}/?${range()}&caller_faults=include`);
    expect(await readNumber(page, 'total-failures')).toBe(TOTALS.totalFirstHand);
    expect(await readMatrix(page)).toEqual(TOTALS.matrix);
    expect(await readHeadline(page)).toEqual(TOTALS.headline);
  });

  it('counts logical calls: no pool checkout, no connect, no SDK-inner HTTP request, every attempt', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}`);
    expect(await readNumber(page, 'total-calls')).toBe(TOTALS.totalCalls);
  });

  // The budget's outbound-calls SLI (?sli=calls) is the one whose rows are logical calls.
  it('shows per service: calls, first-hand failed calls and echoed calls (caller faults included)', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}&sli=calls&caller_faults=include`);
    await page.locator('[data-testid="budget-table"] tr[data-service]').first().waitFor();
    await shot('ground-truth-budget-include');
    const expected = Object.fromEntries(
      SERVICES.map((s) => [
        s,
        { calls: TOTALS.calls[s], failures: TOTALS.firstHandCalls[s], propagated: TOTALS.propagatedCalls[s] },
      ]),
    );
    expect(await readBudget(page)).toEqual(expected);
  });

  it('leaves validation (caller faults) out of the budget by default', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}&sli=calls`);
    await page.locator('[data-testid="budget-table"] tr[data-service]').first().waitFor();
    const budget = await readBudget(page);
    const shown = Object.fromEntries(
      Object.entries(budget).map(([s, b]) => [s, { calls: b.calls, failures: b.failures }]),
    );
    expect(shown).toEqual(
      Object.fromEntries(
        SERVICES.map((s) => [
          s,
          { calls: TOTALS.calls[s], failures: TOTALS.firstHandCallsWithoutValidation[s] },
        ]),
      ),
    );
  });

  it('lists each first-hand code once, under the service where it happened, none of the echoes', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}`);
    const { keys } = await readTopCodes(page);
    expect(keys).toEqual(Object.keys(TOTALS.codes).sort());
  });

  it('counts each top code by its first-hand failures', async () => {
    await page.goto(`${app.dashboardUrl}/?${range()}`);
    expect((await readTopCodes(page)).counts).toEqual(TOTALS.codes);
  });
});

describe('workflows', () => {
  it('counts the requests and the failed ones', async () => {
    await page.goto(`${app.dashboardUrl}/workflows?${range()}`);
    await shot('ground-truth-workflows');
    expect(await readNumber(page, 'wf-count')).toBe(TOTALS.requests);
    expect(await readNumber(page, 'wf-failed')).toBe(TOTALS.failedRequests);
  });

  it('names the first first-hand failure of each failed workflow: service, source, code', async () => {
    await page.goto(`${app.dashboardUrl}/workflows?${range()}`);
    expect(await readFirstFailures(page)).toEqual(TOTALS.firstFailures);
  });
});

describe('retries', () => {
  it('counts every attempt after the first: hand-written repeats, withRetry, the SDK’s own retry', async () => {
    await page.goto(`${app.dashboardUrl}/retries?${range()}`);
    await shot('ground-truth-retries');
    expect(await readNumber(page, 'retries-total')).toBe(TOTALS.retries);
    expect(await readNumber(page, 'misrouted-count')).toBe(TOTALS.misrouted);
  });
});

describe('SQL', () => {
  it('first_hand_failures(from, to) holds the same rows a person would query in an incident review', async () => {
    const at = (s: number) => new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');
    const res = await fetch(`${app.dashboardUrl}/api/sql`, {
      method: 'POST',
      headers: consoleHeaders(app.dashboardUrl),
      body: JSON.stringify({
        sql: `SELECT ServiceName AS service, class, source, code, count() AS n FROM first_hand_failures(from = '${at(fromS)}', to = '${at(toS)}') GROUP BY service, class, source, code`,
      }),
    });
    const json = (await res.json()) as { rows?: Record<string, unknown>[]; error?: string };
    expect(json.error).toBeUndefined();
    const rows = Object.fromEntries(
      (json.rows ?? []).map((r) => [`${r.service}/${r.class}/${r.source}/${r.code}`, Number(r.n)]),
    );
    expect(rows).toEqual(TOTALS.codes);
  });
});
