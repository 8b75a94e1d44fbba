import { ClassBadge } from '../components/class-badge';
import { type BudgetBar, HdxBudgetChart } from '../components/hdx-budget-chart';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { formatCount, formatPercent } from '../lib/format';
import { loadBudgets } from '../server/overview-data';

/** Error budget per service against the SLO, consumed by class, with burn rate; the table is the rows behind the chart. */
export async function DBBudgetChart({ params }: { params: DashboardParams }) {
  const budgets = await loadBudgets(params);
  const bars: BudgetBar[] = budgets.map((b) => {
    const bar: BudgetBar = { service: b.service };
    for (const cls of FAILURE_CLASSES) bar[cls] = (b.consumedByClass[cls] ?? 0) * 100;
    return bar;
  });
  return (
    <section className="panel" aria-labelledby="budget-title">
      <h2 id="budget-title">
        Error budget per service <span className="muted">SLO {params.slo}% of outbound calls succeed</span>
      </h2>
      {budgets.length === 0 ? (
        <p className="muted">No outbound calls in this range.</p>
      ) : (
        <HdxBudgetChart data={bars} />
      )}
      <table data-testid="budget-table">
        <thead>
          <tr>
            <th>service</th>
            <th>calls</th>
            <th>failures</th>
            <th>allowed</th>
            <th>budget used</th>
            <th>burn rate</th>
            <th>by class</th>
          </tr>
        </thead>
        <tbody>
          {budgets.map((b) => (
            <tr key={b.service} data-service={b.service}>
              <td>{b.service}</td>
              <td data-testid="budget-calls">{formatCount(b.calls)}</td>
              <td data-testid="budget-failures">{formatCount(b.failures)}</td>
              <td>
                {b.allowedFailures < 10 ? b.allowedFailures.toFixed(1) : formatCount(b.allowedFailures)}
              </td>
              <td className={b.consumed >= 1 ? 'bad' : undefined}>{formatPercent(b.consumed)}</td>
              <td className={b.burnRate > 1 ? 'bad' : undefined}>{b.burnRate.toFixed(2)}×</td>
              <td>
                {Object.entries(b.failuresByClass)
                  .sort((x, y) => y[1] - x[1])
                  .map(([cls, n]) => (
                    <span key={cls} className="nowrap">
                      <ClassBadge value={cls} /> {formatCount(n)}{' '}
                    </span>
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
