import { budgetQueryParams, type DashboardParams, filterQueryParams } from '../lib/dashboard-params';
import type { MatrixInputRow } from '../lib/error-budget';
import { idStr, num, panelQuery, str } from './run-panel-query';

export async function loadMatrix(p: DashboardParams): Promise<MatrixInputRow[]> {
  const rows = await panelQuery('overview_matrix', filterQueryParams(p));
  return rows.map((r) => ({
    class: str(r.failure_class),
    source: str(r.source),
    failures: num(r.failures),
    retryableFailures: num(r.retryable_failures),
  }));
}

export interface TimelinePoint {
  /** Bucket start, unix seconds. */
  t: number;
  class: string;
  failures: number;
}

export async function loadTimeline(p: DashboardParams): Promise<TimelinePoint[]> {
  const rows = await panelQuery('overview_timeline', { ...filterQueryParams(p), bucket: p.range.bucketS });
  return rows.map((r) => ({ t: num(r.t), class: str(r.failure_class), failures: num(r.failures) }));
}

export interface TopCode {
  service: string;
  /** The exact service name (idStr), for links; `service` is the shown text. */
  serviceId: string;
  span: string;
  class: string;
  source: string;
  code: string;
  failures: number;
  retryableFailures: number;
  lastSeen: number;
  exampleMessage: string;
}

export const TOP_CODES_LIMIT = 15;

export async function loadTopCodes(p: DashboardParams): Promise<TopCode[]> {
  const rows = await panelQuery('overview_top_codes', { ...filterQueryParams(p), limit: TOP_CODES_LIMIT });
  return rows.map((r) => ({
    service: str(r.service),
    serviceId: idStr(r.service),
    span: str(r.span),
    class: str(r.class),
    source: str(r.source),
    code: str(r.code),
    failures: num(r.failures),
    retryableFailures: num(r.retryable_failures),
    lastSeen: num(r.last_seen),
    exampleMessage: str(r.example_message),
  }));
}

export interface FilterOptions {
  services: string[];
  sources: string[];
}

export async function loadFilterOptions(p: DashboardParams): Promise<FilterOptions> {
  const rows = await panelQuery('filter_options', { from: p.range.fromS, to: p.range.toS });
  const row = rows[0] ?? {};
  const list = (v: unknown) => (Array.isArray(v) ? v.map(str) : []);
  return { services: list(row.services), sources: list(row.sources) };
}

export interface CallTotals {
  calls: number;
}

/** Logical outbound calls in the range, every service together (the headline's denominator). */
export async function loadCallTotals(p: DashboardParams): Promise<CallTotals> {
  const rows = await panelQuery('budget_calls', budgetQueryParams(p));
  return { calls: rows.reduce((s, r) => s + num(r.range_calls), 0) };
}
