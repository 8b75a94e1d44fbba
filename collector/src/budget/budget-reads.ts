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
 * The calls budget's rows: the preload's exact count first, then the stored spans' count, leaving
 * out the minutes counted exactly only where there are any. That lookup is a subquery, which a period the preload never counted (a fleet without it, any
 * OpenTelemetry SDK) should not pay: the choice is made here, once, for the page and the alerts.
 */
export async function readCallBudgetRows(
  run: RunBudgetQuery,
  params: Record<string, unknown>,
): Promise<BudgetRows> {
  const exact = await run('budget_exact_calls', params);
  const rows = await run(exact.length > 0 ? 'budget_calls_beside_exact' : 'budget_calls', params);
  return { rows, exact };
}

/** The requests budget's rows, chosen as readCallBudgetRows chooses the calls'. */
export async function readRequestBudgetRows(
  run: RunBudgetQuery,
  params: Record<string, unknown>,
): Promise<BudgetRows> {
  const exact = await run('budget_exact_requests', params);
  const rows = await run(exact.length > 0 ? 'budget_requests_beside_exact' : 'budget_requests', params);
  return { rows, exact };
}
