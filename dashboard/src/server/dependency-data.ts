import { type DashboardParams, filterQueryParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { idStr, num, panelQuery, str } from './run-panel-query';

export interface DependencyEdge {
  /** Shown text (visibleText); `serviceId` is the exact value, for links. */
  service: string;
  serviceId: string;
  dependency: string;
  calls: number;
  failures: number;
  /** First-hand failures per class. */
  byClass: Record<string, number>;
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
}

/** Service → dependency edges of the range, most first-hand failures first (dependencies.sql). */
export async function loadDependencies(p: DashboardParams): Promise<DependencyEdge[]> {
  const { from, to, service } = filterQueryParams(p);
  const rows = await panelQuery('dependencies', { from, to, service });
  return rows.map((r) => ({
    service: str(r.service),
    serviceId: idStr(r.service),
    dependency: str(r.dependency),
    calls: num(r.calls),
    failures: num(r.failures),
    byClass: Object.fromEntries(FAILURE_CLASSES.map((c) => [c, num(r[c])])),
    errorRate: num(r.error_rate),
    p50Ms: num(r.p50_ms),
    p95Ms: num(r.p95_ms),
  }));
}
