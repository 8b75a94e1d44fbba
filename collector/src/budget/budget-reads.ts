import type { RunBudgetQuery } from './run-budget-query.js';
import { readWorkflowsSampled } from './workflows-sampled.js';

type Row = Record<string, unknown>;

/** The span-side rows beside the preload's exact count of the same budget. */
export interface BudgetRows {
  rows: Row[];
  exact: Row[];
}

/**
 * A budget's rows (`calls` or `requests`): the preload's exact count first (budget_exact_<sli>),
 * then the stored spans' count, leaving out the minutes counted exactly only where there are any
 * (budget_<sli>_beside_exact, else budget_<sli>). That lookup is a subquery, which a period the
 * preload never counted (a fleet without it, any OpenTelemetry SDK) should not pay: the choice is
 * made here, once, for the page and the alerts. `more`: parameters of the rows' query that need
 * a lookup of their own, asked beside the exact count.
 */
async function readBudgetRows(
  sli: 'calls' | 'requests',
  run: RunBudgetQuery,
  params: Record<string, unknown>,
  more: Promise<Record<string, unknown>> = Promise.resolve({}),
): Promise<BudgetRows> {
  const [exact, extra] = await Promise.all([run(`budget_exact_${sli}`, params), more]);
  const rows = await run(exact.length > 0 ? `budget_${sli}_beside_exact` : `budget_${sli}`, {
    ...params,
    ...extra,
  });
  return { rows, exact };
}

/** Where the budget queries start reading: the earlier of the SLO period's and the range's start. */
function periodStart(params: Record<string, unknown>): number {
  return Math.min(Number(params.period_from ?? params.from), Number(params.from ?? params.period_from));
}

/** The calls budget's rows (readBudgetRows). */
export const readCallBudgetRows = (run: RunBudgetQuery, params: Record<string, unknown>) =>
  readBudgetRows('calls', run, params);

/**
 * The requests budget's rows (readBudgetRows). The requests are workflows' roots, whose weights
 * are read only where one may be sampled: `sampled` is asked beside the exact count.
 */
export const readRequestBudgetRows = (run: RunBudgetQuery, params: Record<string, unknown>) =>
  readBudgetRows(
    'requests',
    run,
    params,
    readWorkflowsSampled(run, periodStart(params)).then((sampled) => ({ sampled })),
  );
