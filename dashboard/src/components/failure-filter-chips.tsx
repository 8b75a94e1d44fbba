import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import type { DashboardParams } from '../lib/dashboard-params';
import {
  type FailureFilters,
  failureFilterLinkParams,
  NO_FAILURE_FILTERS,
  type NoneField,
} from '../lib/failure-selection';
import { NARROWING_KEYS, type Narrowing } from '../lib/narrowing';
import { dashboardHref } from '../lib/url-state';

const NONE_TEXT: Record<NoneField, string> = {
  service: 'no service name',
  dependency: 'no dependency named',
  source: 'no source',
  code: 'no code',
};

const NARROWING_TEXT: Record<keyof Narrowing, string> = {
  code: 'code',
  version: 'version',
  endpoint: 'endpoint',
  q: 'message contains',
};

/**
 * The filters that narrow failures beyond the filter bar's selects (code, version, endpoint,
 * message search) and, on the Failures page, its own (none, outbound, counted), each said in words
 * with a link that lifts it: a reader who came from a number elsewhere sees why the total is what
 * it is.
 */
export function FailureFilterChips({
  params,
  path,
  filters = NO_FAILURE_FILTERS,
  keep = {},
}: {
  params: DashboardParams;
  /** The page the lifting links open (this one). */
  path: string;
  filters?: FailureFilters;
  /** This page's own URL values the links keep (the Failures page's state). */
  keep?: Record<string, string | null>;
}) {
  const without = (lift: Partial<FailureFilters>, narrowing: Record<string, null> = {}) =>
    dashboardHref(path, params, {
      ...failureFilterLinkParams({ ...filters, ...lift }),
      ...keep,
      ...narrowing,
    });
  const chips: { key: string; text: React.ReactNode; href: string }[] = [];
  for (const key of NARROWING_KEYS) {
    const value = params.narrow[key];
    if (!value) continue;
    chips.push({
      key,
      text: (
        <>
          {NARROWING_TEXT[key]} <code>{key === 'q' ? `“${visibleText(value)}”` : visibleText(value)}</code>
        </>
      ),
      href: without({}, { [key]: null }),
    });
  }
  for (const field of filters.none)
    chips.push({
      key: `none-${field}`,
      text: NONE_TEXT[field],
      href: without({ none: filters.none.filter((f) => f !== field) }),
    });
  if (filters.outbound)
    chips.push({ key: 'outbound', text: 'outbound calls only', href: without({ outbound: false }) });
  if (filters.counted)
    chips.push({
      key: 'counted',
      text:
        filters.counted === 'yes'
          ? 'counted against the budget (caller faults left out)'
          : 'caller faults only (left out of the budget)',
      href: without({ counted: '' }),
    });
  if (chips.length === 0) return null;
  return (
    <p className="filter-links" data-testid="failure-filters">
      Only failures:{' '}
      {chips.map((c, i) => (
        <span key={c.key} className="nowrap" data-testid={`failure-filter-${c.key}`}>
          {i > 0 ? ' · ' : null}
          {c.text} (
          <Link href={c.href} aria-label="remove this filter">
            remove
          </Link>
          )
        </span>
      ))}
    </p>
  );
}
