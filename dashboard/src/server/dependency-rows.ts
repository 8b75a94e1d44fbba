import { dependencyEndpoint } from '../lib/dependency-endpoint';
import { idStr, num, panelQuery } from './run-panel-query';

type Row = Record<string, unknown>;

/**
 * The dependencies query's edges with what two narrower reads add, each run only for the edges
 * that need it: the latency of a sampled edge weighted as its calls are (dependency_latency_weighted,
 * for the edges whose calls_variance > 0), and who answered at each edge's endpoint (request_callees:
 * `callee`, `callee_unsampled`). As parts of the edges query they were paid on every page, sampled
 * or not.
 */
export async function loadDependencyRows(params: Record<string, unknown>): Promise<Row[]> {
  const rows = await panelQuery('dependencies', params);
  const sampled = rows.filter((r) => num(r.calls_variance) > 0);
  const endpoints = [...new Set(rows.map((r) => dependencyEndpoint(idStr(r.dependency))))].sort();
  const [weighted, callees] = await Promise.all([
    sampled.length === 0
      ? []
      : panelQuery('dependency_latency_weighted', {
          from: params.from,
          to: params.to,
          source: params.source,
          services: [...new Set(sampled.map((r) => idStr(r.service)))].sort(),
          dependencies: [...new Set(sampled.map((r) => idStr(r.dependency)))].sort(),
        }),
    endpoints.length === 0
      ? []
      : panelQuery('request_callees', { from: params.from, to: params.to, endpoints }),
  ]);
  const edgeKey = (r: Row) => `${idStr(r.service)}\u0000${idStr(r.dependency)}`;
  const latencyOf = new Map(weighted.map((r) => [edgeKey(r), r]));
  const calleeOf = new Map(callees.map((r) => [idStr(r.endpoint), r]));
  return rows.map((r) => {
    const latency = num(r.calls_variance) > 0 ? latencyOf.get(edgeKey(r)) : undefined;
    const callee = calleeOf.get(dependencyEndpoint(idStr(r.dependency)));
    return {
      ...r,
      ...(latency ? { p50_ms: latency.p50_ms, p95_ms: latency.p95_ms } : {}),
      callee: callee ? idStr(callee.callee) : '',
      callee_unsampled: callee ? num(callee.callee_unsampled) : 0,
    };
  });
}
