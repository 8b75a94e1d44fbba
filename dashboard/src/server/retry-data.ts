import { type DashboardParams, filterQueryParams } from '../lib/dashboard-params';
import { idStr, num, panelQuery, str } from './run-panel-query';

export interface RetrySummary {
  calls: number;
  retries: number;
  failedRetries: number;
  misrouted: number;
}

export async function loadRetrySummary(p: DashboardParams): Promise<RetrySummary> {
  const r = (await panelQuery('retries_summary', filterQueryParams(p)))[0] ?? {};
  return {
    calls: num(r.total_calls),
    retries: num(r.total_retries),
    failedRetries: num(r.failed_retries),
    misrouted: num(r.total_misrouted),
  };
}

export interface RetryByClass {
  /** As stored: a class, or 'after success'. */
  afterClass: string;
  retries: number;
  succeeded: number;
  maxAttempt: number;
  waitNs: number;
  retryDurationNs: number;
}

export async function loadRetriesByClass(p: DashboardParams): Promise<RetryByClass[]> {
  const rows = await panelQuery('retries_by_class', filterQueryParams(p));
  return rows.map((r) => ({
    afterClass: idStr(r.after_class),
    retries: num(r.retries),
    succeeded: num(r.succeeded),
    maxAttempt: num(r.max_attempt),
    waitNs: num(r.wait_ns),
    retryDurationNs: num(r.retry_duration_ns),
  }));
}

export interface MisroutedRow {
  /** The group's fields exactly as stored, for the link to its rows. */
  key: { service: string; class: string; source: string; code: string };
  service: string;
  /** The exact service name (idStr), for links; `service` is the shown text. */
  serviceId: string;
  class: string;
  source: string;
  code: string;
  wastedCalls: number;
  wastedNs: number;
  lastSeen: number;
  exampleCorrelationId: string;
}

/** The misrouted-retry panel lists this many groups; the panel says so when it is full. */
export const MISROUTED_LIMIT = 100;

export async function loadMisrouted(p: DashboardParams): Promise<MisroutedRow[]> {
  const rows = await panelQuery('retries_misrouted', { ...filterQueryParams(p), limit: MISROUTED_LIMIT });
  return rows.map((r) => ({
    key: { service: idStr(r.service), class: idStr(r.class), source: idStr(r.source), code: idStr(r.code) },
    service: str(r.service),
    serviceId: idStr(r.service),
    class: str(r.class),
    source: str(r.source),
    code: str(r.code),
    wastedCalls: num(r.wasted_calls),
    wastedNs: num(r.wasted_ns),
    lastSeen: num(r.last_seen),
    exampleCorrelationId: idStr(r.example_correlation_id),
  }));
}
