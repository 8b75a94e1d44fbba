import { countsAgainstBudget } from '@faultline/collector/budget';
import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { formatCount, formatPercent } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { foldMatrix, loadMatrixCells } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

export type MatrixBy = 'source' | 'dependency';

export function parseMatrixBy(value: string | string[] | undefined): MatrixBy {
  return (Array.isArray(value) ? value[0] : value) === 'dependency' ? 'dependency' : 'source';
}

const NO_DEPENDENCY = '(none named)';

/**
 * Class × source of first-hand failures (each counted once, where it happened): count, share of all
 * first-hand failures, retryable share. Each cell links to its rows. Caller-fault classes are marked
 * when the budget leaves them out.
 */
export async function DBClassSourceMatrix({
  params,
  by = 'source',
}: {
  params: DashboardParams;
  by?: MatrixBy;
}) {
  const matrix = foldMatrix(await loadMatrixCells(params), by);
  const total = matrix.reduce((s, r) => s + r.failures, 0);
  const sources = [...new Set(matrix.map((r) => r.source))].sort();
  const classes = [...FAILURE_CLASSES, ...new Set(matrix.map((r) => r.class))].filter(
    (c, i, all) => all.indexOf(c) === i && matrix.some((r) => r.class === c),
  );
  return (
    <section className="panel" aria-labelledby="matrix-title">
      <h2 id="matrix-title">
        Class × {by} <span className="muted">first-hand failures</span>
      </h2>
      <nav className="sli-switch" aria-label="Matrix columns">
        {(['source', 'dependency'] as const).map((b) => (
          <Link
            key={b}
            href={dashboardHref('/', params, { matrix: b === 'source' ? null : b })}
            aria-current={by === b ? 'true' : undefined}
            data-testid={`matrix-by-${b}`}
          >
            by {b}
          </Link>
        ))}
      </nav>
      {matrix.length === 0 ? (
        <p className="muted">No failures in this range.</p>
      ) : (
        <table className="matrix" data-testid="matrix" data-by={by}>
          <thead>
            <tr>
              <th>class \ {by}</th>
              {sources.map((s) => (
                <th key={s}>
                  {by === 'dependency' && s !== '' ? (
                    <Link href={dashboardHref('/', params, { dependency: s, matrix: by })}>
                      {visibleText(s)}
                    </Link>
                  ) : by === 'dependency' ? (
                    NO_DEPENDENCY
                  ) : (
                    s
                  )}
                </th>
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
                      data-source={by === 'source' ? src : undefined}
                      data-dependency={by === 'dependency' ? src : undefined}
                      data-failures={cell.failures}
                    >
                      <Link
                        data-testid="matrix-count"
                        href={sqlConsoleHref(
                          'dashboard/failures_by_class',
                          params,
                          by === 'source' ? { class: cls, source: src } : { class: cls },
                        )}
                      >
                        <strong>{formatCount(cell.failures)}</strong>
                      </Link>
                      <br />
                      <span className="muted">
                        <span title="of all first-hand failures in the matrix, caller faults included">
                          {formatPercent(total ? cell.failures / total : 0)} of all
                        </span>{' '}
                        · retryable{' '}
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
