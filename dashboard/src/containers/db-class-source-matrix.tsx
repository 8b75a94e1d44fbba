import { countsAgainstBudget } from '@faultline/collector/budget';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { DependencyName } from '../components/dependency-name';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { failuresHref } from '../lib/failure-selection';
import { formatCount, formatPercent } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadCallees } from '../server/dependency-callees';
import { foldMatrix, loadMatrixCells } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

export type MatrixBy = 'source' | 'dependency';

export function parseMatrixBy(value: string | string[] | undefined): MatrixBy {
  return (Array.isArray(value) ? value[0] : value) === 'dependency' ? 'dependency' : 'source';
}

const NO_DEPENDENCY = '(none named)';

/**
 * Class × source of first-hand failures (each counted once, where it happened): count, share of all
 * first-hand failures, retryable share. Each count opens its failure groups, whose total is that
 * count. Caller-fault classes are marked when the budget leaves them out.
 */
export async function DBClassSourceMatrix({
  params,
  by = 'source',
}: {
  params: DashboardParams;
  by?: MatrixBy;
}) {
  const [cells, callees] = await Promise.all([loadMatrixCells(params), loadCallees(params)]);
  const matrix = foldMatrix(cells, by);
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
        <>
          <table className="matrix" data-testid="matrix" data-by={by}>
            <thead>
              <tr>
                <th>class \ {by}</th>
                {sources.map((s) => (
                  <th key={s} className="num dep-name">
                    {by === 'dependency' && s !== '' ? (
                      <Link href={dashboardHref('/', params, { dependency: s, matrix: by })}>
                        <DependencyName dependency={s} callee={callees.get(s)} />
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
                          href={failuresHref(
                            params,
                            by === 'source' ? { class: cls, source: src } : { class: cls, dependency: src },
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
          <p className="muted">
            Each count opens its failure groups; the raw rows of one class are a query away:{' '}
            <Link href={sqlConsoleHref('dashboard/failures_by_class', params, { class: classes[0] ?? '' })}>
              failures_by_class
            </Link>
            .
          </p>
        </>
      )}
    </section>
  );
}
