import type { Locator, Page } from 'playwright-core';

// Readers for the numbers the contract's data-testids expose on the Overview, Workflows and
// Retries pages. Each reads what a person sees (cell text), never a recomputation.

/** The first integer in a cell ("1,234 · 12.5%" → 1234); NaN when there is none. */
export function firstCount(text: string | null): number {
  const m = /\d[\d,]*/.exec(text ?? '');
  return m ? Number(m[0].replace(/,/g, '')) : Number.NaN;
}

async function count(locator: Locator): Promise<number> {
  return firstCount(await locator.first().textContent({ timeout: 5000 }));
}

/** `td[data-class][data-source]` of the matrix: "class/source" → first-hand failures (cells > 0). */
export async function readMatrix(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const cell of await page.locator('[data-testid="matrix"] td[data-class][data-source]').all()) {
    // The count itself when the cell marks it (it also shows shares), else the cell's first number.
    const marked = cell.getByTestId('matrix-count');
    const n = firstCount(await ((await marked.count()) ? marked.first() : cell).textContent());
    if (n > 0) out[`${await cell.getAttribute('data-class')}/${await cell.getAttribute('data-source')}`] = n;
  }
  return out;
}

export async function readHeadline(page: Page): Promise<{ class: string; source: string; failures: number }> {
  const headline = page.getByTestId('headline');
  const cls = headline.getByTestId('headline-class');
  // The class is shown as a badge (swatch + glyph + name) that names it in data-class.
  const badge = cls.locator('[data-class]');
  const className = (await badge.count())
    ? await badge.first().getAttribute('data-class')
    : await cls.textContent({ timeout: 5000 });
  return {
    class: (className ?? '').trim(),
    source: ((await headline.getByTestId('headline-source').textContent({ timeout: 5000 })) ?? '').trim(),
    failures: await count(headline.getByTestId('headline-failures')),
  };
}

export interface BudgetRow {
  calls: number;
  failures: number;
  propagated: number;
}

/** `budget-table` rows by `data-service`. */
export async function readBudget(page: Page): Promise<Record<string, BudgetRow>> {
  const out: Record<string, BudgetRow> = {};
  for (const row of await page.locator('[data-testid="budget-table"] tr[data-service]').all()) {
    out[(await row.getAttribute('data-service'))!] = {
      calls: await count(row.getByTestId('budget-calls')),
      failures: await count(row.getByTestId('budget-failures')),
      propagated: await count(row.getByTestId('budget-propagated')),
    };
  }
  return out;
}

/** `top-codes` rows `tr[data-code]`: "service/class/source/code" → the row's count column. */
export async function readTopCodes(page: Page): Promise<{ keys: string[]; counts: Record<string, number> }> {
  const keys: string[] = [];
  const counts: Record<string, number> = {};
  for (const row of await page.locator('[data-testid="top-codes"] tr[data-code]').all()) {
    const attr = (name: string) => row.getAttribute(name);
    const key = `${await attr('data-service')}/${await attr('data-class')}/${await attr('data-source')}/${await attr('data-code')}`;
    keys.push(key);
    // The count is the row's `data-failures` (today's Overview); the contract names no cell for it.
    counts[key] = Number(await attr('data-failures'));
  }
  return { keys: keys.sort(), counts };
}

/** `/workflows` `first-failures` rows: "service/source/code" → failed workflows. */
export async function readFirstFailures(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const rows = page.locator('[data-testid="first-failures"] tr[data-service][data-source][data-code]');
  for (const row of await rows.all()) {
    const key = `${await row.getAttribute('data-service')}/${await row.getAttribute('data-source')}/${await row.getAttribute('data-code')}`;
    out[key] = await count(row.getByTestId('failed-workflows'));
  }
  return out;
}

/** A single number shown under a testid (`total-failures`, `retries-total`, …). */
export function readNumber(page: Page, testId: string): Promise<number> {
  return count(page.getByTestId(testId));
}
