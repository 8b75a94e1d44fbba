/** Error budget arithmetic, kept pure so it is tested without a database. */
/** Label for Error spans that reached the rollup without an envelope. */
export const UNCLASSIFIED = 'unclassified';

export interface BudgetInputRow {
  service: string;
  /** '' for successful calls and for failures nobody classified. */
  class: string;
  calls: number;
  failures: number;
}

export interface ServiceBudget {
  service: string;
  calls: number;
  failures: number;
  /** Failures the SLO allows for this many calls: (1 − slo) × calls. */
  allowedFailures: number;
  /** Fraction of the budget spent (1 = all of it; can exceed 1). */
  consumed: number;
  /** Observed error rate divided by the rate the SLO allows; > 1 spends the budget early. */
  burnRate: number;
  failuresByClass: Record<string, number>;
  /** Budget fraction consumed per class; sums to `consumed`. */
  consumedByClass: Record<string, number>;
}

export function computeBudgets(rows: BudgetInputRow[], sloPercent: number): ServiceBudget[] {
  const allowedRate = 1 - sloPercent / 100;
  const byService = new Map<string, { calls: number; failures: number; byClass: Record<string, number> }>();
  for (const row of rows) {
    const entry = byService.get(row.service) ?? { calls: 0, failures: 0, byClass: {} };
    entry.calls += row.calls;
    if (row.failures > 0) {
      // The rollup counts an Error span nobody classified as a failure with class ''.
      const cls = row.class || UNCLASSIFIED;
      entry.failures += row.failures;
      entry.byClass[cls] = (entry.byClass[cls] ?? 0) + row.failures;
    }
    byService.set(row.service, entry);
  }
  const budgets = [...byService].map(([service, e]): ServiceBudget => {
    const allowedFailures = e.calls * allowedRate;
    const consumedByClass: Record<string, number> = {};
    for (const [cls, n] of Object.entries(e.byClass))
      consumedByClass[cls] = allowedFailures > 0 ? n / allowedFailures : 0;
    const errorRate = e.calls > 0 ? e.failures / e.calls : 0;
    return {
      service,
      calls: e.calls,
      failures: e.failures,
      allowedFailures,
      consumed: allowedFailures > 0 ? e.failures / allowedFailures : 0,
      burnRate: errorRate / allowedRate,
      failuresByClass: e.byClass,
      consumedByClass,
    };
  });
  return budgets.sort((a, b) => b.consumed - a.consumed || a.service.localeCompare(b.service));
}

export interface MatrixInputRow {
  class: string;
  source: string;
  failures: number;
  retryableFailures: number;
}

export interface Headline {
  class: string;
  source: string;
  failures: number;
  totalFailures: number;
  totalCalls: number;
  /** Share of the range's whole error budget (all services) this class × source spent. */
  budgetShare: number;
  /** Share of all failures in the range. */
  failureShare: number;
}

/** The class × source pair that spent the most budget; null when nothing failed. */
export function pickHeadline(matrix: MatrixInputRow[], budgets: ServiceBudget[]): Headline | null {
  const top = [...matrix].sort(
    (a, b) => b.failures - a.failures || a.class.localeCompare(b.class) || a.source.localeCompare(b.source),
  )[0];
  if (!top || top.failures === 0) return null;
  const totalFailures = matrix.reduce((s, r) => s + r.failures, 0);
  const totalCalls = budgets.reduce((s, b) => s + b.calls, 0);
  const allowed = budgets.reduce((s, b) => s + b.allowedFailures, 0);
  return {
    class: top.class,
    source: top.source,
    failures: top.failures,
    totalFailures,
    totalCalls,
    budgetShare: allowed > 0 ? top.failures / allowed : 0,
    failureShare: totalFailures > 0 ? top.failures / totalFailures : 0,
  };
}
