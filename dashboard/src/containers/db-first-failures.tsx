import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { workflowsHref } from '../lib/workflow-selection';
import { loadFirstFailures } from '../server/workflow-data';

/**
 * Where failed workflows first went wrong: the earliest first-hand failure of each (a 23505 deep in
 * inventory, not the entry's own 422 that echoes it), by service, source and code.
 */
export async function DBFirstFailures({ params }: { params: DashboardParams }) {
  const rows = await loadFirstFailures(params);
  const total = rows.reduce((s, r) => s + r.failedWorkflows, 0);
  return (
    <section className="panel" aria-labelledby="first-failure-title">
      <h2 id="first-failure-title">First failure of failed workflows</h2>
      {rows.length === 0 ? (
        <p className="muted">No failed workflows in this range.</p>
      ) : (
        <table data-testid="first-failures">
          <thead>
            <tr>
              <th>first failing class</th>
              <th>service</th>
              <th>source</th>
              <th>code</th>
              <th className="num">failed workflows</th>
              <th className="num">share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={`${r.class}/${r.service}/${r.source}/${r.code}`}
                data-class={r.class}
                data-service={r.service}
                data-source={r.source}
                data-code={r.code}
              >
                <td>
                  {r.class === 'none recorded' ? (
                    <span className="muted">none recorded</span>
                  ) : (
                    <ClassBadge value={r.class} />
                  )}
                </td>
                <td>
                  <ServiceLink params={params} service={r.serviceId} />
                </td>
                <td>{r.source}</td>
                <td>
                  <code>{r.code}</code>
                </td>
                <td className="num" data-testid="failed-workflows">
                  <Link
                    href={workflowsHref(params, { outcome: 'failed', first: r.key })}
                    title="these failed workflows, newest first"
                  >
                    {formatCount(r.failedWorkflows)}
                  </Link>
                </td>
                <td className="num">{formatPercent(total ? r.failedWorkflows / total : 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
