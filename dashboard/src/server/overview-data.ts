import { burnWindowParams, type MatrixInputRow } from '@faultline/collector/budget';
import { budgetQueryParams, type DashboardParams, failureQueryParams } from '../lib/dashboard-params';
import {
  type FailureFilters,
  NO_FAILURE_FILTERS,
  narrowedQueryParams,
  needsNarrowedQueries,
} from '../lib/failure-selection';
import { isNarrowed } from '../lib/narrowing';
import { serviceCallCounts } from './budget-data';
import { loadNarrowedFailures } from './narrowed-data';
import { idStr, num, panelQuery, str } from './run-panel-query';

export interface MatrixCell extends MatrixInputRow {
  /** The exact dependency (idStr); '' for a failure that names none (a server's own rejection). */
  dependency: string;
}

/** First-hand failures by class, source and dependency, every filter of the page applied. */
export async function loadMatrixCells(p: DashboardParams): Promise<MatrixCell[]> {
  if (isNarrowed(p.narrow))
    return (await loadNarrowedFailures(p)).map((r) => ({
      class: str(r.class),
      source: str(r.source),
      dependency: r.dependency,
      failures: r.failures,
      retryableFailures: r.retryableFailures,
    }));
  const rows = await panelQuery('overview_matrix', failureQueryParams(p));
  return rows.map((r) => ({
    class: str(r.failure_class),
    source: str(r.source),
    dependency: idStr(r.dependency),
    failures: num(r.failures),
    retryableFailures: num(r.retryable_failures),
  }));
}

/** The cells added up over `by` ('source' for the class × source matrix, 'dependency' for its other view). */
export function foldMatrix(cells: MatrixCell[], by: 'source' | 'dependency'): MatrixInputRow[] {
  const out = new Map<string, MatrixInputRow>();
  for (const c of cells) {
    const column = by === 'source' ? c.source : c.dependency;
    const k = `${c.class}\u0000${column}`;
    const row = out.get(k) ?? { class: c.class, source: column, failures: 0, retryableFailures: 0 };
    row.failures += c.failures;
    row.retryableFailures += c.retryableFailures;
    out.set(k, row);
  }
  return [...out.values()];
}

/** Class × source of first-hand failures (the headline's and the matrix's rows). */
export async function loadMatrix(p: DashboardParams): Promise<MatrixInputRow[]> {
  return foldMatrix(await loadMatrixCells(p), 'source');
}

/** The dependency most of a class × source pair's first-hand failures called; '' when none names one. */
export function topDependency(cells: MatrixCell[], cls: string, source: string): string {
  const named = cells.filter((c) => c.class === cls && c.source === source && c.dependency !== '');
  return (
    [...named].sort((a, b) => b.failures - a.failures || a.dependency.localeCompare(b.dependency))[0]
      ?.dependency ?? ''
  );
}

export interface TimelinePoint {
  /** Bucket start, unix seconds. */
  t: number;
  class: string;
  failures: number;
}

/** The timeline's named query and parameters: narrowed_timeline when a filter beyond the selects is set. */
export function timelineQuery(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
): { name: string; params: Record<string, string | number> } {
  return needsNarrowedQueries(p, f)
    ? { name: 'narrowed_timeline', params: { ...narrowedQueryParams(p, f), bucket: p.range.bucketS } }
    : { name: 'overview_timeline', params: { ...failureQueryParams(p), bucket: p.range.bucketS } };
}

export async function loadTimeline(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
): Promise<TimelinePoint[]> {
  const { name, params } = timelineQuery(p, f);
  const rows = await panelQuery(name, params);
  return rows.map((r) => ({ t: num(r.t), class: str(r.failure_class), failures: num(r.failures) }));
}

export interface TopCode {
  service: string;
  /** The exact service name (idStr), for links; `service` is the shown text. */
  serviceId: string;
  /** Shown text; `dependencyId` is the exact value, for links. '' when the failure names none. */
  dependency: string;
  dependencyId: string;
  span: string;
  class: string;
  /** Shown text; `sourceId` and `codeId` are the exact values, for links. */
  source: string;
  sourceId: string;
  code: string;
  codeId: string;
  failures: number;
  retryableFailures: number;
  lastSeen: number;
  exampleMessage: string;
}

export const TOP_CODES_LIMIT = 15;

export async function loadTopCodes(p: DashboardParams): Promise<TopCode[]> {
  if (isNarrowed(p.narrow))
    return (await loadNarrowedFailures(p)).slice(0, TOP_CODES_LIMIT).map((r) => ({
      service: str(r.service),
      serviceId: r.service,
      dependency: str(r.dependency),
      dependencyId: r.dependency,
      span: r.span,
      class: str(r.class),
      source: str(r.source),
      sourceId: r.source,
      code: str(r.code),
      codeId: r.code,
      failures: r.failures,
      retryableFailures: r.retryableFailures,
      lastSeen: r.lastSeen,
      exampleMessage: r.exampleMessage,
    }));
  const rows = await panelQuery('overview_top_codes', { ...failureQueryParams(p), limit: TOP_CODES_LIMIT });
  return rows.map((r) => ({
    service: str(r.service),
    serviceId: idStr(r.service),
    dependency: str(r.dependency),
    dependencyId: idStr(r.dependency),
    span: str(r.span),
    class: str(r.class),
    source: str(r.source),
    sourceId: idStr(r.source),
    code: str(r.code),
    codeId: idStr(r.code),
    failures: num(r.failures),
    retryableFailures: num(r.retryable_failures),
    lastSeen: num(r.last_seen),
    exampleMessage: str(r.example_message),
  }));
}

export interface FilterOptions {
  services: string[];
  sources: string[];
  dependencies: string[];
}

export async function loadFilterOptions(p: DashboardParams): Promise<FilterOptions> {
  const rows = await panelQuery('filter_options', { from: p.range.fromS, to: p.range.toS });
  const row = rows[0] ?? {};
  const list = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);
  return { services: list(row.services), sources: list(row.sources), dependencies: list(row.dependencies) };
}

export interface CallTotals {
  calls: number;
}

/**
 * Logical outbound calls in the range, every service together (the headline's denominator); with a
 * dependency filter, the calls to that dependency (dependency_calls_1m, through the dependencies query).
 */
export async function loadCallTotals(p: DashboardParams): Promise<CallTotals> {
  if (p.dependency !== '') {
    const rows = await panelQuery('dependencies', { ...failureQueryParams(p), class: '', per_edge: 1 });
    return { calls: rows.reduce((s, r) => s + num(r.calls), 0) };
  }
  const inputs = await serviceCallCounts({ ...budgetQueryParams(p), ...burnWindowParams() });
  return { calls: inputs.reduce((s, i) => s + i.total.range, 0) };
}
