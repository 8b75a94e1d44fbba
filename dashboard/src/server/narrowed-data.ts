import type { DashboardParams } from '../lib/dashboard-params';
import { type FailureFilters, NO_FAILURE_FILTERS, narrowedQueryParams } from '../lib/failure-selection';
import { idStr, num, panelQuery, str } from './run-panel-query';

/** One (service, dependency, class, source, code) of the first-hand failures under every filter. */
export interface NarrowedRow {
  /** Exact values (ids); the shown text goes through str() where it is drawn. */
  service: string;
  dependency: string;
  class: string;
  source: string;
  code: string;
  failures: number;
  retryableFailures: number;
  /** Those of outbound calls: what Dependencies and the calls SLI count. */
  outboundFailures: number;
  firstSeen: number;
  lastSeen: number;
  /** The newest failure's span name and message (shown text). */
  span: string;
  exampleMessage: string;
  exampleCorrelationId: string;
  exampleTraceId: string;
  exampleSpanId: string;
}

/** Rows narrowed_failures returns at most; a panel built from more says so. */
export const NARROWED_ROW_LIMIT = 5000;

/** narrowed_failures.sql over the page's range, or another one (the previous range of a trend). */
export async function loadNarrowedFailures(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
  range: { fromS: number; toS: number } = p.range,
): Promise<NarrowedRow[]> {
  const rows = await panelQuery('narrowed_failures', {
    ...narrowedQueryParams(p, f),
    from: range.fromS,
    to: range.toS,
    limit: NARROWED_ROW_LIMIT,
  });
  return rows.map((r) => ({
    service: idStr(r.service),
    dependency: idStr(r.dependency),
    class: idStr(r.class),
    source: idStr(r.source),
    code: idStr(r.code),
    failures: num(r.failures),
    retryableFailures: num(r.retryable_failures),
    outboundFailures: num(r.outbound_failures),
    firstSeen: num(r.first_seen),
    lastSeen: num(r.last_seen),
    span: str(r.span),
    exampleMessage: str(r.example_message),
    exampleCorrelationId: idStr(r.example_correlation_id),
    exampleTraceId: idStr(r.example_trace_id),
    exampleSpanId: idStr(r.example_span_id),
  }));
}

/** The key of a failure group (service, dependency, class, code), as failure_groups groups. */
export const groupKey = (r: { service: string; dependency: string; class: string; code: string }) =>
  `${r.service}\u0000${r.dependency}\u0000${r.class}\u0000${r.code}`;
