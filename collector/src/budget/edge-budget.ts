import { BURN_WINDOWS, type BurnWindow } from './budget-settings.js';
import { type BudgetCounts, type BudgetInput, type BudgetSettings, computeBudget } from './error-budget.js';

function rangeOnly(n: number): BudgetCounts {
  const windows = {} as Record<BurnWindow, number>;
  for (const w of BURN_WINDOWS) windows[w.key] = 0;
  return { range: n, windows, period: n };
}

/**
 * The share of its service's error budget one service → dependency edge consumed in the range: the
 * edge's first-hand failures (caller faults only when included) over the budget the SLO allows the
 * service's eligible calls, exactly as the service's own "range used" (computeBudget), so the
 * service's edges add up to at most the service's share.
 */
export function edgeBudgetShare(
  service: BudgetInput,
  edgeFailuresByClass: Record<string, number>,
  settings: BudgetSettings,
): number {
  const failuresByClass: Record<string, BudgetCounts> = {};
  for (const [cls, n] of Object.entries(edgeFailuresByClass)) if (n > 0) failuresByClass[cls] = rangeOnly(n);
  return computeBudget({ ...service, failuresByClass, propagated: 0 }, settings).usedByRange;
}
