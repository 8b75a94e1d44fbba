import { type BudgetInput, burnWindowParams, edgeBudgetShare } from '@faultline/collector/budget';
import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { isNarrowed } from '../lib/narrowing';
import { serviceCallCounts } from './budget-data';
import { loadDependencyRows } from './dependency-rows';
import { loadNarrowedFailures } from './narrowed-data';
import { idStr, num, str } from './run-panel-query';

export interface EdgeCode {
  class: string;
  /** Shown text; `codeId` is the exact value, for links. */
  code: string;
  codeId: string;
  failures: number;
}

export interface DependencyEdge {
  /** Shown text (visibleText); `serviceId` and `dependencyId` are the exact values, for links. */
  service: string;
  serviceId: string;
  dependency: string;
  dependencyId: string;
  /**
   * The service that answered the edge's calls (its own SERVER spans under them, dependencies.sql's
   * callee, dependency-rows.ts), when that names the dependency better than its own name does: shown text, and the
   * exact name for node ids. '' when no callee reported itself, or it is the dependency's name.
   */
  callee: string;
  calleeId: string;
  /**
   * The share of the callee's traffic at this endpoint that its own sampling dropped (0 when it
   * keeps all, or none is known): that share of the edge's calls had no callee span to show an echo,
   * so some of its first-hand failures may be the callee's own.
   */
  calleeUnsampled: number;
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

/** The query's top_codes: [class, code, count] tuples, most frequent first. */
function topCodes(value: unknown): EdgeCode[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((t): t is unknown[] => Array.isArray(t))
    .map(([cls, code, n]) => ({ class: str(cls), code: str(code), codeId: idStr(code), failures: num(n) }));
}

/** Each service's eligible calls (calls_1m, every source): the denominator of an edge's budget share. */
async function serviceCallInputs(p: DashboardParams): Promise<Map<string, BudgetInput>> {
  const inputs = await serviceCallCounts({ ...budgetQueryParams(p), ...burnWindowParams(), source: '' });
  return new Map(inputs.map((i) => [i.service, i]));
}

/**
 * The edges' first-hand failures under code, version, endpoint or message search: the failures of
 * outbound calls that match, per edge, by class and code (the calls, latency and retries stay the
 * edge's own: they have no code or message).
 */
async function narrowedEdgeFailures(
  p: DashboardParams,
): Promise<Map<string, { byClass: Record<string, number>; failures: number; topCodes: EdgeCode[] }>> {
  const out = new Map<
    string,
    { byClass: Record<string, number>; failures: number; codes: Map<string, EdgeCode> }
  >();
  for (const r of await loadNarrowedFailures(p)) {
    if (r.dependency === '' || r.outboundFailures === 0) continue;
    const k = `${r.service}\u0000${r.dependency}`;
    const e = out.get(k) ?? { byClass: {}, failures: 0, codes: new Map<string, EdgeCode>() };
    e.byClass[r.class] = (e.byClass[r.class] ?? 0) + r.outboundFailures;
    e.failures += r.outboundFailures;
    const ck = `${r.class}\u0000${r.code}`;
    const c = e.codes.get(ck) ?? { class: r.class, code: str(r.code), codeId: r.code, failures: 0 };
    c.failures += r.outboundFailures;
    e.codes.set(ck, c);
    out.set(k, e);
  }
  return new Map(
    [...out].map(([k, e]) => [
      k,
      {
        byClass: e.byClass,
        failures: e.failures,
        topCodes: [...e.codes.values()]
          .sort(
            (a, b) =>
              b.failures - a.failures || a.class.localeCompare(b.class) || a.codeId.localeCompare(b.codeId),
          )
          .slice(0, CODES_PER_EDGE),
      },
    ]),
  );
}

/**
 * Service → dependency edges of the range (dependencies.sql), most budget
 * consumed first, then most first-hand failures, then most calls.
 */
export async function loadDependencies(p: DashboardParams): Promise<DependencyEdge[]> {
  const [rows, services, narrowed] = await Promise.all([
    loadDependencyRows({ ...failureQueryParams(p), per_edge: CODES_PER_EDGE }),
    serviceCallInputs(p),
    isNarrowed(p.narrow) ? narrowedEdgeFailures(p) : null,
  ]);
  const settings = {
    slo: p.slo,
    periodS: p.periodDays * 86_400,
    toS: p.range.toS,
    nowS: Math.floor(Date.now() / 1000),
    callerFaults: p.callerFaults,
  };
  const edges = rows.flatMap((r): DependencyEdge[] => {
    const serviceId = idStr(r.service);
    const dependencyId = idStr(r.dependency);
    const matched = narrowed?.get(`${serviceId}\u0000${dependencyId}`);
    if (narrowed && !matched) return [];
    const calleeId = idStr(r.callee) === dependencyId ? '' : idStr(r.callee);
    const byClass = Object.fromEntries(
      FAILURE_CLASSES.map((c) => [c, matched ? (matched.byClass[c] ?? 0) : num(r[c])]),
    );
    const failures = matched ? matched.failures : num(r.failures);
    const dominant = FAILURE_CLASSES.reduce<string>(
      (best, c) => ((byClass[c] ?? 0) > (best ? (byClass[best] ?? 0) : 0) ? c : best),
      '',
    );
    const service = services.get(serviceId);
    return [
      {
        service: str(r.service),
        serviceId,
        dependency: str(r.dependency),
        dependencyId,
        callee: str(calleeId),
        calleeId,
        calleeUnsampled: idStr(r.callee) === '' ? 0 : num(r.callee_unsampled),
        calls: num(r.calls),
        retries: num(r.retries),
        misrouted: num(r.misrouted),
        failures,
        byClass,
        dominantClass: dominant,
        errorRate: matched ? (num(r.calls) === 0 ? 0 : failures / num(r.calls)) : num(r.error_rate),
        p50Ms: num(r.p50_ms),
        p95Ms: num(r.p95_ms),
        budgetShare: service ? edgeBudgetShare(service, byClass, settings) : 0,
        topCodes: matched ? matched.topCodes : topCodes(r.top_codes),
      },
    ];
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
