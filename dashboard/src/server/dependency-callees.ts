import { type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import { loadDependencyRows } from './dependency-rows';
import { idStr } from './run-panel-query';

/**
 * The service that answered each dependency's calls (request_callees at the edges' endpoints, dependency-rows.ts), by the dependency's
 * exact name, where that names it better than the name does (`127.0.0.1:37701` → `inventory`).
 * The same read as the Overview's call total under a dependency filter (loadCallTotals), so the
 * page runs it once.
 */
export async function loadCallees(p: DashboardParams): Promise<Map<string, string>> {
  let rows: Record<string, unknown>[];
  try {
    rows = await loadDependencyRows({ ...failureQueryParams(p), class: '', per_edge: 1 });
  } catch (err) {
    // A better name only: without it each dependency keeps the name its caller dialed, and the
    // panels that show it still answer.
    console.error('faultline: dependency names by callee unavailable:', err);
    return new Map();
  }
  const callees = new Map<string, string>();
  for (const r of rows) {
    const dependency = idStr(r.dependency);
    const callee = idStr(r.callee);
    if (callee !== '' && callee !== dependency && !callees.has(dependency)) callees.set(dependency, callee);
  }
  return callees;
}
