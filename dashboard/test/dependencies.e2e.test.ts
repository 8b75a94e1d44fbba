import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';
import { DEPENDENCY_TRUTH, sendDependencyCalls } from './support/send-dependency-calls';

// Issue 13's Dependencies page against known calls (send-dependency-calls.ts), read in Chromium.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;

beforeAll(async () => {
  session = await startSeeded(sendDependencyCalls);
  ({ app, page } = session);
}, 120_000);

afterAll(() => session?.close());

describe('dependencies', () => {
  it('lists each service → dependency edge with the ground truth, most failures first', async () => {
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    await page.getByTestId('dependencies').waitFor();
    const edges = await page.getByTestId('dependency-edge').evaluateAll((rows) =>
      rows.map((r) => ({
        service: r.getAttribute('data-service'),
        dependency: r.getAttribute('data-dependency'),
        calls: Number(r.getAttribute('data-calls')),
        failures: Number(r.getAttribute('data-failures')),
        classes: [...r.querySelectorAll('td[data-class]')]
          .filter((td) => td.textContent !== '')
          .map((td) => td.getAttribute('data-class')),
      })),
    );
    expect(edges).toEqual(
      [...DEPENDENCY_TRUTH]
        .sort((a, b) => b.failures - a.failures || b.calls - a.calls)
        .map((t) => ({
          service: 'shop',
          dependency: t.dependency,
          calls: t.calls,
          failures: t.failures,
          classes: t.cls ? [t.cls] : [],
        })),
    );
  });

  it('links each edge to the Overview filtered to its service', async () => {
    await page.goto(`${app.dashboardUrl}/dependencies?range=1h`);
    const href = await page.getByTestId('dependency-edge').first().locator('a').getAttribute('href');
    expect(href).toMatch(/^\/\?.*service=shop/);
    expect(href).toContain('range=1h');
  });
});
