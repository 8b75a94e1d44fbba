import { CALLER_FAULT_CLASSES } from '@faultline/collector/budget';
import { type DashboardParams, parsePrintable, type SearchParams, single } from './dashboard-params';
import { dashboardHref } from './url-state';

/**
 * The Failures page's filters beyond the shared ones (range, service, source, class, dependency):
 * what narrows its groups to exactly the rows a number on another page counts, so that a count of
 * 619 ECONNREFUSED opens a view whose total reads 619 (failure_groups.sql applies them).
 */
export interface FailureFilters {
  /** One failure code; '' = every code. */
  code: string;
  /** Fields that must be '' (a failure that names no dependency, no code, no source). */
  none: NoneField[];
  /** Only failures of outbound calls (CLIENT and PRODUCER): what the budget's calls SLI and Dependencies count. */
  outbound: boolean;
  /** 'yes': only the classes counted against the budget; 'no': only those left out (caller faults); '' = every class. */
  counted: '' | 'yes' | 'no';
}

export const NONE_FIELDS = ['service', 'dependency', 'source', 'code'] as const;
export type NoneField = (typeof NONE_FIELDS)[number];

export const NO_FAILURE_FILTERS: FailureFilters = { code: '', none: [], outbound: false, counted: '' };

/** Reads `code`, `none`, `outbound` and `counted` from the URL; throws RangeError with a fix-it message. */
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
    code: parsePrintable(sp, 'code', 'a failure code'),
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
    code: f.code,
    none: f.none,
    outbound: f.outbound ? 1 : 0,
    counted: f.counted,
    left_out: p.callerFaults === 'include' ? [] : [...CALLER_FAULT_CLASSES],
  };
}

/** These filters as URL values, to keep them on a link within the Failures page (null = absent). */
export function failureFilterLinkParams(f: FailureFilters): Record<string, string | null> {
  return {
    code: f.code || null,
    none: f.none.length > 0 ? f.none.join(',') : null,
    outbound: f.outbound ? '1' : null,
    counted: f.counted || null,
  };
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
