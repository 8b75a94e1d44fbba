import { countsAgainstBudget, pickHeadline } from '@faultline/collector/budget';
import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { FIRST_HAND } from '../components/counting-note';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent, formatTimeUtc } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { foldMatrix, loadCallTotals, loadMatrixCells, topDependency } from '../server/overview-data';

function rangeText(p: DashboardParams): string {
  if (p.range.preset) return `in the last ${p.range.preset}`;
  return `from ${formatTimeUtc(p.range.fromS)} to ${formatTimeUtc(p.range.toS)}`;
}

/** One sentence: which class from which source, calling which dependency, failed most, each failure counted once. */
export async function DBHeadline({ params }: { params: DashboardParams }) {
  const [cells, totals] = await Promise.all([loadMatrixCells(params), loadCallTotals(params)]);
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
          <span data-testid="headline-class">
            <ClassBadge value={h.class} />
          </span>{' '}
          failures from <strong data-testid="headline-source">{h.source}</strong>
          {dependency ? (
            <>
              {params.dependency ? ' calling ' : ', mostly calling '}
              <Link href={dashboardHref('/dependencies', params, { dependency })}>
                <code data-testid="headline-dependency">{visibleText(dependency)}</code>
              </Link>
              ,
            </>
          ) : null}{' '}
          eat the most budget {rangeText(params)}:{' '}
          <strong data-testid="headline-failures">{formatCount(h.failures)}</strong> of the{' '}
          {formatCount(h.totalFailures)} first-hand failures counted against the budget (
          <span data-testid="headline-share">{formatPercent(h.failureShare)}</span>
          {params.callerFaults === 'exclude' ? ', caller faults left out' : ''}).
        </p>
      ) : (
        <p>No first-hand failures counted against the budget {rangeText(params)}.</p>
      )}
      <p className="totals muted">
        <span>
          logical outbound calls <strong data-testid="total-calls">{formatCount(totals.calls)}</strong>
        </span>{' '}
        <span>
          first-hand failures{' '}
          <strong data-testid="total-failures">{formatCount(h?.totalFailures ?? 0)}</strong>
        </span>{' '}
        {params.callerFaults === 'exclude' ? (
          <span>
            caller faults (validation, not counted){' '}
            <strong data-testid="total-caller-faults">{formatCount(excludedCount)}</strong>
          </span>
        ) : null}
      </p>
    </section>
  );
}
