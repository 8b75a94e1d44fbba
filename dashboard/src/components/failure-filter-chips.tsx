import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import type { DashboardParams } from '../lib/dashboard-params';
import { type FailureFilters, failureFilterLinkParams, type NoneField } from '../lib/failure-selection';
import { dashboardHref } from '../lib/url-state';

const NONE_TEXT: Record<NoneField, string> = {
  service: 'no service name',
  dependency: 'no dependency named',
  source: 'no source',
  code: 'no code',
};

/**
 * The Failures page's own filters, each said in words with a link that lifts it: a reader who came
 * from a number elsewhere sees why the total is what it is.
 */
export function FailureFilterChips({
  params,
  filters,
  state,
  version,
}: {
  params: DashboardParams;
  filters: FailureFilters;
  state: string;
  version: string;
}) {
  const without = (lift: Partial<FailureFilters>) =>
    dashboardHref('/failures', params, {
      ...failureFilterLinkParams({ ...filters, ...lift }),
      state: state || null,
      version: version || null,
    });
  const chips: { key: string; text: React.ReactNode; href: string }[] = [];
  if (filters.code)
    chips.push({
      key: 'code',
      text: (
        <>
          code <code>{visibleText(filters.code)}</code>
        </>
      ),
      href: without({ code: '' }),
    });
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
      Only:{' '}
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
