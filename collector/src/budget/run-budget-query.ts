type Row = Record<string, unknown>;

/**
 * Runs one of the dashboard's named budget queries (its name without the `dashboard/` folder) and
 * gives its rows: the collector's store.runNamed, or the dashboard's cached panelQuery.
 */
export type RunBudgetQuery = (name: string, params: Record<string, unknown>) => Promise<Row[]>;
