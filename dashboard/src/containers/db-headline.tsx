import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { pickHeadline } from '../lib/error-budget';
import { formatCount, formatPercent, formatTimeUtc } from '../lib/format';
import { loadBudgets, loadMatrix } from '../server/overview-data';

function rangeText(p: DashboardParams): string {
  if (p.range.preset) return `in the last ${p.range.preset}`;
  return `from ${formatTimeUtc(p.range.fromS)} to ${formatTimeUtc(p.range.toS)}`;
}

/** One sentence: which class from which source spent the most budget in the range. */
export async function DBHeadline({ params }: { params: DashboardParams }) {
  const [matrix, budgets] = await Promise.all([loadMatrix(params), loadBudgets(params)]);
  const totalCalls = budgets.reduce((s, b) => s + b.calls, 0);
  const h = pickHeadline(matrix, budgets);
  return (
    <section className="headline" data-testid="headline">
      {h ? (
        <p>
          <ClassBadge value={h.class} /> failures from <strong>{h.source}</strong> consumed{' '}
          <strong>{formatPercent(h.budgetShare)}</strong> of the error budget {rangeText(params)}:{' '}
          {formatCount(h.failures)} of {formatCount(h.totalFailures)} failures (
          {formatPercent(h.failureShare)}).
        </p>
      ) : (
        <p>No failures {rangeText(params)}.</p>
      )}
      <p className="totals muted">
        <span>
          outbound calls <strong data-testid="total-calls">{formatCount(totalCalls)}</strong>
        </span>{' '}
        <span>
          failures <strong data-testid="total-failures">{formatCount(h?.totalFailures ?? 0)}</strong>
        </span>
      </p>
    </section>
  );
}
