import { callBudgetInputs, requestBudgetInputs } from '../lib/budget-settings';
import { budgetQueryParams, type DashboardParams } from '../lib/dashboard-params';
import { type BudgetInput, computeBudgets, type ServiceBudget } from '../lib/error-budget';
import { panelQuery } from './run-panel-query';

/** Logical outbound calls per service: calls from calls_1m, first-hand failures, echoes beside. */
async function callInputs(p: DashboardParams): Promise<BudgetInput[]> {
  const params = budgetQueryParams(p);
  const [calls, failures] = await Promise.all([
    panelQuery('budget_calls', params),
    panelQuery('budget_failures', params),
  ]);
  return callBudgetInputs(calls, failures);
}

/** The entry service's requests: each workflow's root server span, failed ones by first-hand cause. */
async function requestInputs(p: DashboardParams): Promise<BudgetInput[]> {
  // A request is not of one source: the source filter narrows outbound calls only.
  const { source: _source, ...params } = budgetQueryParams(p);
  return requestBudgetInputs(await panelQuery('budget_requests', params));
}

export async function loadBudgets(p: DashboardParams): Promise<ServiceBudget[]> {
  const inputs = p.sli === 'calls' ? await callInputs(p) : await requestInputs(p);
  return computeBudgets(inputs, {
    slo: p.slo,
    periodS: p.periodDays * 86_400,
    toS: p.range.toS,
    nowS: Math.floor(Date.now() / 1000),
    callerFaults: p.callerFaults,
  });
}
