import { countsAgainstBudget, pickHeadline } from '@faultline/collector/budget';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { FIRST_HAND } from '../components/counting-note';
import { DependencyName } from '../components/dependency-name';
import type { DashboardParams } from '../lib/dashboard-params';
import { failuresHref } from '../lib/failure-selection';
import { formatCount, formatPercent, formatTime } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadCallees } from '../server/dependency-callees';
import { displayZone } from '../server/display-zone';
import { foldMatrix, loadCallTotals, loadMatrixCells, topDependency } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

function rangeText(p: DashboardParams, zone: string): string {
  if (p.range.preset) return `in the last ${p.range.preset}`;
  return `from ${formatTime(p.range.fromS, zone)} to ${formatTime(p.range.toS, zone)}`;
}

/**
 * One sentence: which class from which source, calling which dependency, failed most, each failure
 * counted once. The class and its count open that class × source's failure groups, whose example
 * request is the next click: the cause in two.
 */
export async function DBHeadline({ params }: { params: DashboardParams }) {
  const [cells, totals, callees, zone] = await Promise.all([
    loadMatrixCells(params),
    loadCallTotals(params),
    loadCallees(params),
    displayZone(),
  ]);
  const matrix = foldMatrix(cells, 'source');
  const h = pickHeadline(matrix, params.callerFaults);
  const dependency = h ? params.dependency || topDependency(cells, h.class, h.source) : '';
  const excludedCount = matrix
    .filter((r) => !countsAgainstBudget(r.class, params.callerFaults))
    .reduce((s, r) => s + r.failures, 0);
  return (
    <section className="headline" data-testid="headline" title={FIRST_HAND}>
      {h ? (
        <p>
          <Link
            data-testid="headline-groups"
            href={failuresHref(params, { class: h.class, source: h.source })}
            title="the failure groups of this class and source, each with an example request"
          >
            <span data-testid="headline-class">
              <ClassBadge value={h.class} />
            </span>{' '}
            failures from <strong data-testid="headline-source">{h.source}</strong>
          </Link>
          {dependency ? (
            <>
              {params.dependency ? ' calling ' : ', mostly calling '}
              <Link href={dashboardHref('/dependencies', params, { dependency })}>
                <span data-testid="headline-dependency">
                  <DependencyName dependency={dependency} callee={callees.get(dependency)} />
                </span>
              </Link>
              ,
            </>
          ) : null}{' '}
          eat the most budget {rangeText(params, zone)}:{' '}
          <Link href={failuresHref(params, { class: h.class, source: h.source })}>
            <strong data-testid="headline-failures">{formatCount(h.failures)}</strong>
          </Link>{' '}
          of the{' '}
          <Link href={failuresHref(params, { counted: 'yes' })} data-testid="headline-total-link">
            {formatCount(h.totalFailures)}
          </Link>{' '}
          first-hand failures counted against the budget (
          <span data-testid="headline-share">{formatPercent(h.failureShare)}</span>
          {params.callerFaults === 'exclude' ? ', caller faults left out' : ''}).
        </p>
      ) : (
        <p>No first-hand failures counted against the budget {rangeText(params, zone)}.</p>
      )}
      <p className="totals muted">
        <span>
          logical outbound calls{' '}
          <Link
            href={
              params.dependency !== ''
                ? sqlConsoleHref('dashboard/dependencies', params, {
                    class: '',
                    dependency: params.dependency,
                    per_edge: 1,
                  })
                : sqlConsoleHref('dashboard/budget_call_rows', params)
            }
            title="the rows these calls are counted from, in the SQL console"
          >
            <strong data-testid="total-calls">{formatCount(totals.calls)}</strong>
          </Link>
        </span>{' '}
        <span>
          first-hand failures{' '}
          <Link href={failuresHref(params, { counted: 'yes' })}>
            <strong data-testid="total-failures">{formatCount(h?.totalFailures ?? 0)}</strong>
          </Link>
        </span>{' '}
        {params.callerFaults === 'exclude' ? (
          <span>
            caller faults (validation, not counted){' '}
            <Link href={failuresHref(params, { counted: 'no' })}>
              <strong data-testid="total-caller-faults">{formatCount(excludedCount)}</strong>
            </Link>
          </span>
        ) : null}
      </p>
    </section>
  );
}
