import { BURN_WINDOWS, budgetCounts, callBudgetInputs } from '../lib/budget-settings';
import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { type BudgetCounts, type BudgetInput, computeBudgets, type ServiceBudget } from '../lib/error-budget';
import { num, panelQuery, str } from './run-panel-query';

const counts = budgetCounts;

function add(a: BudgetCounts, b: BudgetCounts): BudgetCounts {
  const windows = { ...a.windows };
  for (const w of BURN_WINDOWS) windows[w.key] += b.windows[w.key];
  return { range: a.range + b.range, windows, period: a.period + b.period };
}

/**
 * Logical outbound calls per service: calls from calls_1m, first-hand failures, echoes beside. The
 * class and dependency filters narrow the failures only: the service's calls stay its budget.
 */
async function callInputs(p: DashboardParams): Promise<BudgetInput[]> {
  const params = budgetQueryParams(p);
  const { class: cls, dependency } = failureQueryParams(p);
  const [calls, failures] = await Promise.all([
    panelQuery('budget_calls', params),
    panelQuery('overview_budget_failures', { ...params, class: cls, dependency }),
  ]);
  return callBudgetInputs(calls, failures);
}

/** The entry service's requests: each workflow's root server span, failed ones by first-hand cause. */
async function requestInputs(p: DashboardParams): Promise<BudgetInput[]> {
  // A request is not of one source: the source filter narrows outbound calls only.
  const { source: _source, ...params } = budgetQueryParams(p);
  const rows = await panelQuery('budget_requests', params);
  const byService = new Map<string, BudgetInput>();
  const zero = (): BudgetCounts => ({
    range: 0,
    windows: { '5m': 0, '30m': 0, '1h': 0, '6h': 0, '3d': 0 },
    period: 0,
  });
  for (const r of rows) {
    const service = str(r.service);
    const input = byService.get(service) ?? {
      service,
      total: zero(),
      firstSeenS: Number.POSITIVE_INFINITY,
      failuresByClass: {},
    };
    const c = counts(r, 'requests', 'range_requests', 'period_requests');
    input.total = add(input.total, c);
    input.firstSeenS = Math.min(input.firstSeenS, num(r.first_seen));
    const cls = str(r.class);
    // The class filter narrows the failed requests to those whose first-hand cause is of that class.
    if (cls !== '' && (p.class === '' || cls === p.class)) {
      input.failuresByClass[cls] = add(input.failuresByClass[cls] ?? zero(), c);
    }
    byService.set(service, input);
  }
  return [...byService.values()];
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
