import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { type BudgetInput, callBudgetInputs, edgeBudgetShare } from '../lib/error-budget';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { idStr, num, panelQuery, str } from './run-panel-query';

export interface EdgeCode {
  class: string;
  code: string;
  failures: number;
}

export interface DependencyEdge {
  /** Shown text (visibleText); `serviceId` and `dependencyId` are the exact values, for links. */
  service: string;
  serviceId: string;
  dependency: string;
  dependencyId: string;
  calls: number;
  retries: number;
  misrouted: number;
  /** First-hand failures of the edge (every class, caller faults included). */
  failures: number;
  /** First-hand failures per class. */
  byClass: Record<string, number>;
  /** The class with the most first-hand failures; '' when none failed. */
  dominantClass: string;
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
  /** Share of the service's error budget (calls SLI, over its period) the edge's failures spent in the range. */
  budgetShare: number;
  topCodes: EdgeCode[];
}

export const CODES_PER_EDGE = 3;

function key(service: string, dependency: string): string {
  return `${service}\u0000${dependency}`;
}

/** Each service's eligible calls (calls_1m, every source): the denominator of an edge's budget share. */
async function serviceCallInputs(p: DashboardParams): Promise<Map<string, BudgetInput>> {
  const rows = await panelQuery('budget_calls', { ...budgetQueryParams(p), source: '' });
  return new Map(callBudgetInputs(rows, []).map((i) => [i.service, i]));
}

/**
 * Service → dependency edges of the range (dependencies.sql, dependencies_codes.sql), most budget
 * consumed first, then most first-hand failures, then most calls.
 */
export async function loadDependencies(p: DashboardParams): Promise<DependencyEdge[]> {
  const params = failureQueryParams(p);
  const [rows, codeRows, services] = await Promise.all([
    panelQuery('dependencies', params),
    panelQuery('dependencies_codes', { ...params, per_edge: CODES_PER_EDGE }),
    serviceCallInputs(p),
  ]);
  const codes = new Map<string, EdgeCode[]>();
  for (const r of codeRows) {
    const k = key(idStr(r.service), idStr(r.dependency));
    const list = codes.get(k) ?? [];
    list.push({ class: str(r.class), code: str(r.code), failures: num(r.failures) });
    codes.set(k, list);
  }
  const settings = {
    slo: p.slo,
    periodS: p.periodDays * 86_400,
    toS: p.range.toS,
    nowS: Math.floor(Date.now() / 1000),
    callerFaults: p.callerFaults,
  };
  const edges = rows.map((r): DependencyEdge => {
    const serviceId = idStr(r.service);
    const dependencyId = idStr(r.dependency);
    const byClass = Object.fromEntries(FAILURE_CLASSES.map((c) => [c, num(r[c])]));
    const dominant = FAILURE_CLASSES.reduce<string>(
      (best, c) => ((byClass[c] ?? 0) > (best ? (byClass[best] ?? 0) : 0) ? c : best),
      '',
    );
    const service = services.get(serviceId);
    return {
      service: str(r.service),
      serviceId,
      dependency: str(r.dependency),
      dependencyId,
      calls: num(r.calls),
      retries: num(r.retries),
      misrouted: num(r.misrouted),
      failures: num(r.failures),
      byClass,
      dominantClass: dominant,
      errorRate: num(r.error_rate),
      p50Ms: num(r.p50_ms),
      p95Ms: num(r.p95_ms),
      budgetShare: service ? edgeBudgetShare(service, byClass, settings) : 0,
      topCodes: codes.get(key(serviceId, dependencyId)) ?? [],
    };
  });
  return edges.sort(
    (a, b) =>
      b.budgetShare - a.budgetShare ||
      b.failures - a.failures ||
      b.calls - a.calls ||
      a.serviceId.localeCompare(b.serviceId) ||
      a.dependencyId.localeCompare(b.dependencyId),
  );
}
