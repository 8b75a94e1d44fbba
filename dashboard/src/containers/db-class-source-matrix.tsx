import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { countsAgainstBudget } from '../lib/error-budget';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { formatCount, formatPercent } from '../lib/format';
import { loadMatrix } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

/**
 * Class × source of first-hand failures (each counted once, where it happened): count, share of all
 * first-hand failures, retryable share. Each cell links to its rows. Caller-fault classes are marked
 * when the budget leaves them out.
 */
export async function DBClassSourceMatrix({ params }: { params: DashboardParams }) {
  const matrix = await loadMatrix(params);
  const total = matrix.reduce((s, r) => s + r.failures, 0);
  const sources = [...new Set(matrix.map((r) => r.source))].sort();
  const classes = [...FAILURE_CLASSES, ...new Set(matrix.map((r) => r.class))].filter(
    (c, i, all) => all.indexOf(c) === i && matrix.some((r) => r.class === c),
  );
  return (
    <section className="panel" aria-labelledby="matrix-title">
      <h2 id="matrix-title">
        Class × source <span className="muted">first-hand failures</span>
      </h2>
      {matrix.length === 0 ? (
        <p className="muted">No failures in this range.</p>
      ) : (
        <table className="matrix" data-testid="matrix">
          <thead>
            <tr>
              <th>class \ source</th>
              {sources.map((s) => (
                <th key={s}>{s}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {classes.map((cls) => (
              <tr key={cls}>
                <th scope="row">
                  <ClassBadge value={cls} />
                  {!countsAgainstBudget(cls, params.callerFaults) ? (
                    <span className="muted nowrap" data-testid="not-counted">
                      {' '}
                      caller fault, not counted
                    </span>
                  ) : null}
                </th>
                {sources.map((src) => {
                  const cell = matrix.find((r) => r.class === cls && r.source === src);
                  if (!cell)
                    return (
                      <td key={src} className="muted">
                        —
                      </td>
                    );
                  return (
                    <td
                      key={src}
                      data-testid={`matrix-${cls}-${src}`}
                      data-class={cls}
                      data-source={src}
                      data-failures={cell.failures}
                    >
                      <Link
                        data-testid="matrix-count"
                        href={sqlConsoleHref('dashboard/failures_by_class', params, {
                          class: cls,
                          source: src,
                        })}
                      >
                        <strong>{formatCount(cell.failures)}</strong>
                      </Link>
                      <br />
                      <span className="muted">
                        {formatPercent(total ? cell.failures / total : 0)} · retryable{' '}
                        {formatPercent(cell.failures ? cell.retryableFailures / cell.failures : 0, 0)}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
