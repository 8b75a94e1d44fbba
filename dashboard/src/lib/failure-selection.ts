import { CALLER_FAULT_CLASSES } from '@faultline/collector/budget';
import type { DashboardParams } from './dashboard-params';
import { isNarrowed } from './narrowing';
import { dashboardHref } from './url-state';
import { type SearchParams, single } from './url-values';

/**
 * The Failures page's filters beyond the shared ones (range, service, source, class, dependency,
 * and the narrowing: code, version, endpoint, q): what narrows its groups to exactly the rows a
 * number on another page counts, so that a count of 619 ECONNREFUSED opens a view whose total
 * reads 619 (failure_groups.sql applies them).
 */
export interface FailureFilters {
  /** Fields that must be '' (a failure that names no dependency, no code, no source). */
  none: NoneField[];
  /** Only failures of outbound calls (CLIENT and PRODUCER): what the budget's calls SLI and Dependencies count. */
  outbound: boolean;
  /** 'yes': only the classes counted against the budget; 'no': only those left out (caller faults); '' = every class. */
  counted: '' | 'yes' | 'no';
}

export const NONE_FIELDS = ['service', 'dependency', 'source', 'code'] as const;
export type NoneField = (typeof NONE_FIELDS)[number];

export const NO_FAILURE_FILTERS: FailureFilters = { none: [], outbound: false, counted: '' };

/** Reads `none`, `outbound` and `counted` from the URL; throws RangeError with a fix-it message. */
export function parseFailureFilters(sp: SearchParams): FailureFilters {
  const none = (single(sp, 'none') ?? '').split(',').filter((f) => f !== '');
  for (const field of none) {
    if (!(NONE_FIELDS as readonly string[]).includes(field)) {
      throw new RangeError(
        `"none" lists fields that must be empty: ${NONE_FIELDS.join(', ')}; got "${field}".`,
      );
    }
  }
  const outbound = single(sp, 'outbound') ?? '';
  if (outbound !== '' && outbound !== '1')
    throw new RangeError(`"outbound" is 1 or absent, got "${outbound}".`);
  const counted = single(sp, 'counted') ?? '';
  if (counted !== '' && counted !== 'yes' && counted !== 'no') {
    throw new RangeError(`"counted" is yes (counted against the budget) or no (left out), got "${counted}".`);
  }
  return {
    none: none as NoneField[],
    outbound: outbound === '1',
    counted,
  };
}

/** failure_groups.sql's parameters for these filters, under the page's caller-fault mode. */
export function failureFilterQueryParams(
  p: DashboardParams,
  f: FailureFilters,
): { code: string; none: string[]; outbound: number; counted: string; left_out: string[] } {
  return {
    code: p.narrow.code,
    none: f.none,
    outbound: f.outbound ? 1 : 0,
    counted: f.counted,
    left_out: p.callerFaults === 'include' ? [] : [...CALLER_FAULT_CLASSES],
  };
}

/** These filters as URL values, to keep them on a link within the Failures page (null = absent). */
export function failureFilterLinkParams(f: FailureFilters): Record<string, string | null> {
  return {
    none: f.none.length > 0 ? f.none.join(',') : null,
    outbound: f.outbound ? '1' : null,
    counted: f.counted || null,
  };
}

/**
 * Every filter as narrowed_failures.sql and narrowed_timeline.sql take them (lists as
 * comma-separated text), beside the range.
 */
export function narrowedQueryParams(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
): Record<string, string | number> {
  const { code, none, outbound, counted, left_out } = failureFilterQueryParams(p, f);
  return {
    from: p.range.fromS,
    to: p.range.toS,
    service: p.service,
    source: p.source,
    class: p.class,
    dependency: p.dependency,
    code,
    none: none.join(','),
    outbound,
    counted,
    left_out: left_out.join(','),
    endpoint: p.narrow.endpoint,
    q: p.narrow.q,
    version: p.narrow.version,
  };
}

/** Whether the failure panels must read the narrowed queries: a narrowing or a Failures-page filter is set. */
export function needsNarrowedQueries(p: DashboardParams, f: FailureFilters = NO_FAILURE_FILTERS): boolean {
  return isNarrowed(p.narrow) || f.none.length > 0 || f.outbound || f.counted !== '';
}

/**
 * The rows one shown number counts. A field given is matched exactly, '' included (no dependency
 * named); a field left out keeps the page's own filter.
 */
export interface FailureRows {
  service?: string;
  dependency?: string;
  class?: string;
  source?: string;
  code?: string;
  outbound?: boolean;
  counted?: 'yes' | 'no';
  /** A narrower range than the page's (a timeline bucket), unix seconds. */
  fromS?: number;
  toS?: number;
}

/** `/failures?…` showing exactly `rows`, the page's range and other filters kept. */
export function failuresHref(p: DashboardParams, rows: FailureRows): string {
  const changes: Record<string, string | number | null> = {};
  const none: NoneField[] = [];
  for (const field of ['service', 'dependency', 'source', 'code'] as const) {
    const value = rows[field];
    if (value === undefined) continue;
    changes[field] = value === '' ? null : value;
    if (value === '') none.push(field);
  }
  if (rows.class !== undefined) changes.class = rows.class || null;
  if (none.length > 0) changes.none = none.join(',');
  if (rows.outbound) changes.outbound = 1;
  if (rows.counted) changes.counted = rows.counted;
  if (rows.fromS !== undefined && rows.toS !== undefined) {
    Object.assign(changes, { range: null, from: rows.fromS, to: rows.toS });
  }
  return dashboardHref('/failures', p, changes);
}
