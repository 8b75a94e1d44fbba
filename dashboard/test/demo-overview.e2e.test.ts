import { join } from 'node:path';
import { waitForInserted } from '@faultline/collector';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMatrix, readNumber } from './ground-truth/page-numbers';
import { ARTIFACTS, launchChromium } from './support/browser';
import { type FaultlineProcess, minutesAround, runDemo, startFaultline } from './support/faultline-process';

// `npm run demo` prints what the Overview should show for the scenarios it ran (hand-written per
// scenario in scripts/demo/scenarios.mjs). A person compares the two by eye; this test does it.

interface DemoPrinted {
  matrix: Record<string, number>;
  failures: number;
  calls: number;
  retries: number;
}

/** Parses the lines `printExpected()` in scripts/demo.mjs writes. */
function parseDemoOutput(out: string): DemoPrinted {
  const matrix: Record<string, number> = {};
  for (const m of out.matchAll(/^demo: {3}(\S+) × (\S+) +(\d+)$/gm)) matrix[`${m[1]}/${m[2]}`] = Number(m[3]);
  const totals =
    /^demo: expected totals: (\d+) first-hand failures, (\d+) logical calls \([^)]*\), (\d+) retries$/m.exec(
      out,
    );
  if (!totals) throw new Error(`the demo printed no expected totals:\n${out}`);
  return { matrix, failures: Number(totals[1]), calls: Number(totals[2]), retries: Number(totals[3]) };
}

let app: FaultlineProcess;
let printed: DemoPrinted;
let browser: { context: BrowserContext; close(): Promise<void> };
let page: Page;
let fromS: number;
let toS: number;

beforeAll(async () => {
  const startS = Math.floor(Date.now() / 1000);
  app = await startFaultline();
  printed = parseDemoOutput((await runDemo(app.otlpUrl, 6, 5)).output);
  // The demo stopped its services (they flush on SIGTERM): wait until every span is stored.
  await waitForInserted(app.otlpUrl);
  ({ fromS, toS } = minutesAround(startS));
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('npm run demo against the Overview', () => {
  it('printed a matrix with every class', () => {
    const classes = new Set(Object.keys(printed.matrix).map((k) => k.split('/')[0]));
    expect([...classes].sort()).toEqual([
      'authentication',
      'permanent',
      'rate_limit',
      'transient',
      'validation',
    ]);
  });

  // caller_faults=include: the printed total counts validation too.
  it('shows the class × source matrix the demo printed, and its total', async () => {
    await page.goto(`${app.dashboardUrl}/?from=${fromS}&to=${toS}&caller_faults=include`);
    await page.getByTestId('headline').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'demo-overview.png'), fullPage: true });
    expect(await readMatrix(page)).toEqual(printed.matrix);
    expect(await readNumber(page, 'total-failures')).toBe(printed.failures);
  });

  it('shows the logical calls the demo printed', async () => {
    await page.goto(`${app.dashboardUrl}/?from=${fromS}&to=${toS}`);
    expect(await readNumber(page, 'total-calls')).toBe(printed.calls);
  });

  it('shows the retries the demo printed', async () => {
    await page.goto(`${app.dashboardUrl}/retries?from=${fromS}&to=${toS}`);
    expect(await readNumber(page, 'retries-total')).toBe(printed.retries);
  });
});
