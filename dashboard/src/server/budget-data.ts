import {
  type BudgetInput,
  burnWindowParams,
  callBudgetInputs,
  computeBudgets,
  readCallBudgetRows,
  readRequestBudgetRows,
  requestBudgetInputs,
  type ServiceBudget,
} from '@faultline/collector/budget';
import { type CountTrust, countTrust } from '../lib/count-trust';
import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { num, panelQuery } from './run-panel-query';

/**
 * Logical outbound calls per service: calls from calls_1m, first-hand failures, echoes beside. The
 * class and dependency filters narrow the failures only: the service's calls stay its budget.
 */
const callParams = (p: DashboardParams) => ({ ...budgetQueryParams(p), ...burnWindowParams() });
function requestParams(p: DashboardParams) {
  // A request is not of one source: the source filter narrows outbound calls only.
  const { source: _source, ...params } = budgetQueryParams(p);
  return { ...params, ...burnWindowParams() };
}

/**
 * Each service's logical outbound calls with these budget_calls parameters, as the budget counts
 * them: the stored spans' count and the preload's exact count for the minutes it counted.
 */
export async function serviceCallCounts(params: Record<string, unknown>): Promise<BudgetInput[]> {
  const { rows, exact } = await readCallBudgetRows(panelQuery, params);
  return callBudgetInputs(rows, [], exact);
}

async function callInputs(p: DashboardParams): Promise<BudgetInput[]> {
  // The burn windows from their one home (budget-settings.ts): one count per window.
  const params = callParams(p);
  const { class: cls, dependency } = failureQueryParams(p);
  const [calls, failures] = await Promise.all([
    readCallBudgetRows(panelQuery, params),
    panelQuery('budget_failures', { ...params, class: cls, dependency }),
  ]);
  return callBudgetInputs(calls.rows, failures, calls.exact);
}

/** The entry service's requests: each workflow's root server span, failed ones by first-hand cause. */
async function requestInputs(p: DashboardParams): Promise<BudgetInput[]> {
  const { rows, exact } = await readRequestBudgetRows(panelQuery, requestParams(p));
  const inputs = requestBudgetInputs(rows, exact);
  // The class filter narrows the failed requests to those whose first-hand cause is of that class.
  if (p.class !== '')
    for (const input of inputs)
      for (const cls of Object.keys(input.failuresByClass))
        if (cls !== p.class) delete input.failuresByClass[cls];
  return inputs;
}

/**
 * A request records the class of its first failure, not what it called: a dependency's share of a
 * budget is counted over outbound calls, whatever SLI the page shows (budgetSli).
 */
export function budgetSli(p: DashboardParams): DashboardParams['sli'] {
  return p.dependency !== '' ? 'calls' : p.sli;
}

export async function loadBudgets(p: DashboardParams): Promise<ServiceBudget[]> {
  const inputs = budgetSli(p) === 'calls' ? await callInputs(p) : await requestInputs(p);
  return computeBudgets(inputs, {
    slo: p.slo,
    periodS: p.periodDays * 86_400,
    toS: p.range.toS,
    nowS: Math.floor(Date.now() / 1000),
    callerFaults: p.callerFaults,
  });
}

/** What the budget panel says of its counts under sampling, per service. */
export interface BudgetTrust {
  byService: Map<string, CountTrust>;
  /**
   * The share of the range's outbound calls whose span carried no sampling mark (0 to 1), among the
   * services not counted in process.
   */
  unmarkedShare: number;
  invalidMarks: number;
}

/**
 * Each service's count trust for the SLI the panel shows: the exact part from the budget queries
 * (the same rows the budgets were computed from: cache() makes these reads free), the estimate's
 * variance beside it (sampling_coverage for calls, budget_requests for requests).
 */
export async function loadBudgetTrust(p: DashboardParams): Promise<BudgetTrust> {
  const params = callParams(p);
  const coverage = await panelQuery('sampling_coverage', {
    from: p.range.fromS,
    to: p.range.toS,
    service: p.service,
  });
  const byService = new Map<string, CountTrust>();
  if (budgetSli(p) === 'calls') {
    const variance = new Map(coverage.map((r) => [String(r.service), num(r.variance)]));
    const { rows, exact } = await readCallBudgetRows(panelQuery, params);
    const exactOf = new Map(exact.map((r) => [String(r.service), num(r.range_calls)]));
    for (const input of callBudgetInputs(rows, [], exact))
      byService.set(
        input.service,
        countTrust(input.total.range, exactOf.get(input.service) ?? 0, variance.get(input.service) ?? 0),
      );
  } else {
    const { rows, exact } = await readRequestBudgetRows(panelQuery, requestParams(p));
    const exactOf = new Map(exact.map((r) => [String(r.service), num(r.range_requests)]));
    const variance = new Map<string, number>();
    for (const r of rows)
      variance.set(String(r.service), (variance.get(String(r.service)) ?? 0) + num(r.range_variance));
    for (const input of requestBudgetInputs(rows, exact))
      byService.set(
        input.service,
        countTrust(input.total.range, exactOf.get(input.service) ?? 0, variance.get(input.service) ?? 0),
      );
  }
  // A service counted in process needs no mark to be right: only the others' unmarked calls matter.
  const estimatedOnly = coverage.filter((r) => num(r.exact_calls) === 0);
  const stored = estimatedOnly.reduce((s, r) => s + num(r.estimated_calls), 0);
  const unmarked = estimatedOnly.reduce((s, r) => s + num(r.unmarked_calls), 0);
  return {
    byService,
    unmarkedShare: stored > 0 ? unmarked / stored : 0,
    invalidMarks: coverage.reduce((s, r) => s + num(r.invalid_marks), 0),
  };
}
