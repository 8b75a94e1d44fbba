import {
  type BudgetInput,
  burnWindowParams,
  callBudgetInputs,
  computeBudgets,
  requestBudgetInputs,
  type ServiceBudget,
} from '@faultline/collector/budget';
import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { panelQuery } from './run-panel-query';

/**
 * Logical outbound calls per service: calls from calls_1m, first-hand failures, echoes beside. The
 * class and dependency filters narrow the failures only: the service's calls stay its budget.
 */
async function callInputs(p: DashboardParams): Promise<BudgetInput[]> {
  // The burn windows from their one home (budget-settings.ts): one count per window.
  const params = { ...budgetQueryParams(p), ...burnWindowParams() };
  const { class: cls, dependency } = failureQueryParams(p);
  const [calls, failures] = await Promise.all([
    panelQuery('budget_calls', params),
    panelQuery('budget_failures', { ...params, class: cls, dependency }),
  ]);
  return callBudgetInputs(calls, failures);
}

/** The entry service's requests: each workflow's root server span, failed ones by first-hand cause. */
async function requestInputs(p: DashboardParams): Promise<BudgetInput[]> {
  // A request is not of one source: the source filter narrows outbound calls only.
  const { source: _source, ...params } = budgetQueryParams(p);
  const inputs = requestBudgetInputs(
    await panelQuery('budget_requests', { ...params, ...burnWindowParams() }),
  );
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
