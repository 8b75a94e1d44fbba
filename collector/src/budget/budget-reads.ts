type Row = Record<string, unknown>;

/**
 * Runs one of the dashboard's named budget queries (its name without the `dashboard/` folder) and
 * gives its rows: the collector's store.runNamed, or the dashboard's cached panelQuery.
 */
export type RunBudgetQuery = (name: string, params: Record<string, unknown>) => Promise<Row[]>;

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
 * made here, once, for the page and the alerts.
 */
async function readBudgetRows(
  sli: 'calls' | 'requests',
  run: RunBudgetQuery,
  params: Record<string, unknown>,
): Promise<BudgetRows> {
  const exact = await run(`budget_exact_${sli}`, params);
  const rows = await run(exact.length > 0 ? `budget_${sli}_beside_exact` : `budget_${sli}`, params);
  return { rows, exact };
}

/** The calls budget's rows (readBudgetRows). */
export const readCallBudgetRows = (run: RunBudgetQuery, params: Record<string, unknown>) =>
  readBudgetRows('calls', run, params);

/** The requests budget's rows (readBudgetRows). */
export const readRequestBudgetRows = (run: RunBudgetQuery, params: Record<string, unknown>) =>
  readBudgetRows('requests', run, params);
