import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatDurationNs, formatPercent, formatTime } from '../lib/format';
import { displayZone } from '../server/display-zone';
import { loadMisrouted, loadRetriesByClass, loadRetrySummary, MISROUTED_LIMIT } from '../server/retry-data';
import { sqlConsoleHref } from '../server/sql-links';

/** A Retries figure as a link to the rows it counts: a named query in the SQL console (no page lists retries). */
function RowsLink({
  params,
  query,
  extra,
  value,
  testId,
}: {
  params: DashboardParams;
  query: string;
  extra: Record<string, string | number>;
  value: number;
  testId?: string;
}) {
  return (
    <Link
      href={sqlConsoleHref(`dashboard/${query}`, params, extra)}
      title="the rows this counts, in the SQL console: their total column reads this number"
      data-testid={testId}
    >
      {formatCount(value)}
    </Link>
  );
}

/** Whether retries help or hammer: attempts and waiting time by the class that triggered them. */
export async function DBRetriesByClass({ params }: { params: DashboardParams }) {
  const [summary, rows] = await Promise.all([loadRetrySummary(params), loadRetriesByClass(params)]);
  return (
    <>
      <div className="stat-row" data-testid="retry-stats">
        <div className="stat">
          retries{' '}
          <strong data-testid="retries-total">
            <RowsLink
              params={params}
              query="retries_counted"
              extra={{ kind: 'retries' }}
              value={summary.retries}
            />
          </strong>
        </div>
        <div className="stat">
          share of outbound calls{' '}
          <strong
            title={`${formatCount(summary.retries)} retries of ${formatCount(summary.calls)} outbound calls`}
          >
            {formatPercent(summary.calls ? summary.retries / summary.calls : 0)}
          </strong>
        </div>
        <div className="stat">
          retries that failed again{' '}
          <strong data-testid="retries-failed">
            <RowsLink
              params={params}
              query="retries_counted"
              extra={{ kind: 'failed' }}
              value={summary.failedRetries}
            />
          </strong>
        </div>
        <div className="stat">
          misrouted retries{' '}
          <strong data-testid="misrouted-count">
            <RowsLink
              params={params}
              query="retries_counted"
              extra={{ kind: 'misrouted' }}
              value={summary.misrouted}
            />
          </strong>
        </div>
      </div>
      <section className="panel" aria-labelledby="retry-class-title">
        <h2 id="retry-class-title">Retries by the class that triggered them</h2>
        <table data-testid="retries-by-class">
          <thead>
            <tr>
              <th>after</th>
              <th className="num">retries</th>
              <th className="num">succeeded</th>
              <th className="num">success rate</th>
              <th className="num">highest attempt</th>
              <th className="num">time waiting</th>
              <th className="num">time in retries</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.afterClass} data-testid="retry-class-row" data-after={r.afterClass}>
                <td>
                  {r.afterClass === 'after success' ? (
                    <span className="muted">no failed predecessor</span>
                  ) : (
                    <ClassBadge value={r.afterClass} />
                  )}
                </td>
                <td className="num">
                  <RowsLink
                    params={params}
                    query="retries_listed"
                    extra={{ after_class: r.afterClass, succeeded: 0 }}
                    value={r.retries}
                    testId="retry-class-retries"
                  />
                </td>
                <td className="num">
                  <RowsLink
                    params={params}
                    query="retries_listed"
                    extra={{ after_class: r.afterClass, succeeded: 1 }}
                    value={r.succeeded}
                    testId="retry-class-succeeded"
                  />
                </td>
                <td className="num">{formatPercent(r.retries ? r.succeeded / r.retries : 0)}</td>
                <td className="num">{r.maxAttempt}</td>
                <td className="num">{formatDurationNs(r.waitNs)}</td>
                <td className="num">{formatDurationNs(r.retryDurationNs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">
          Retries of validation, authentication or permanent failures rarely succeed: they spend budget
          without helping.{' '}
          <Link href={sqlConsoleHref('dashboard/retries_by_class', params)}>Open as a query</Link>
        </p>
      </section>
    </>
  );
}

/** Repeats after a non-retryable envelope: the calls and time they wasted, by service and code. */
export async function DBMisroutedRetries({ params }: { params: DashboardParams }) {
  const [rows, zone] = await Promise.all([loadMisrouted(params), displayZone()]);
  return (
    <section className="panel" aria-labelledby="misrouted-title">
      <h2 id="misrouted-title">
        Misrouted retries{' '}
        {rows.length >= MISROUTED_LIMIT ? (
          <span className="muted" data-testid="misrouted-cut">
            the {MISROUTED_LIMIT} groups with the most wasted calls; the SQL console has the rest
          </span>
        ) : null}
      </h2>
      {rows.length === 0 ? (
        <p className="muted">No identical repeat of a non-retryable call in this range.</p>
      ) : (
        <table data-testid="misrouted">
          <thead>
            <tr>
              <th>service</th>
              <th>class</th>
              <th>source</th>
              <th>code</th>
              <th className="num">wasted calls</th>
              <th className="num">wasted time</th>
              <th>last seen</th>
              <th>example</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.service}/${r.class}/${r.source}/${r.code}`} data-testid="misrouted-row">
                <td>
                  <ServiceLink params={params} service={r.serviceId} />
                </td>
                <td>{r.class ? <ClassBadge value={r.class} /> : <span className="muted">succeeded</span>}</td>
                <td>{r.source}</td>
                <td>
                  <code>{r.code}</code>
                </td>
                <td className="num">
                  <RowsLink
                    params={params}
                    query="retries_misrouted_listed"
                    extra={r.key}
                    value={r.wastedCalls}
                    testId="misrouted-wasted"
                  />
                </td>
                <td className="num">{formatDurationNs(r.wastedNs)}</td>
                <td className="nowrap">{formatTime(r.lastSeen, zone)}</td>
                <td>
                  <Link href={`/request?id=${encodeURIComponent(r.exampleCorrelationId)}`}>
                    <code>{visibleText(r.exampleCorrelationId)}</code>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
