import type { Store } from '@faultline/sql';
import {
  BURN_WINDOWS,
  type BudgetInput,
  burnWindowParams,
  callBudgetInputs,
  type RunBudgetQuery,
  readCallBudgetRows,
  readRequestBudgetRows,
  requestBudgetInputs,
  type Sli,
} from '../budget/index.js';

type Row = Record<string, unknown>;

/** The longest burn window (3 d): all that the budget queries of an evaluation read. */
export const LONGEST_WINDOW_S = Math.max(...BURN_WINDOWS.map((w) => w.seconds));

/**
 * Per service, what its budget counts over the burn windows ending at toS: the dashboard's budget
 * panel's queries and reading, so an alert and the page count the same calls (or requests).
 */
export async function readBudgetInputs(store: Store, sli: Sli, toS: number): Promise<BudgetInput[]> {
  const params = {
    from: toS - LONGEST_WINDOW_S,
    to: toS,
    period_from: toS - LONGEST_WINDOW_S,
    service: '',
    ...burnWindowParams(),
  };
  const run: RunBudgetQuery = async (name, p) => (await store.runNamed<Row>(`dashboard/${name}`, p)).rows;
  if (sli === 'requests') {
    // A request is not of one source: budget_requests takes no source filter.
    const { rows, exact } = await readRequestBudgetRows(run, params);
    return requestBudgetInputs(rows, exact);
  }
  const withSource = { ...params, source: '' };
  const [calls, failures] = await Promise.all([
    readCallBudgetRows(run, withSource),
    // Every class and dependency: an alert judges the service's whole budget.
    store.runNamed<Row>('dashboard/budget_failures', { ...withSource, class: '', dependency: '' }),
  ]);
  return callBudgetInputs(calls.rows, failures.rows, calls.exact);
}

/** Each service's last_seen_s (alerts/service_last_seen) over the longest window ending at toS. */
export async function readLastSeen(store: Store, toS: number): Promise<Map<string, number>> {
  const { rows } = await store.runNamed<Row>('alerts/service_last_seen', {
    from: toS - LONGEST_WINDOW_S,
    to: toS,
  });
  return new Map(rows.map((r) => [String(r.service), Number(r.last_seen_s)]));
}
