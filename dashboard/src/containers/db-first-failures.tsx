import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { loadFirstFailures } from '../server/workflow-data';

/** Which class is most often the first failure of a failed workflow: where to start fixing. */
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
              <th>source</th>
              <th>failed workflows</th>
              <th>share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.class}/${r.source}`}>
                <td>
                  {r.class === 'none recorded' ? (
                    <span className="muted">none recorded</span>
                  ) : (
                    <ClassBadge value={r.class} />
                  )}
                </td>
                <td>{r.source}</td>
                <td>{formatCount(r.failedWorkflows)}</td>
                <td>{formatPercent(total ? r.failedWorkflows / total : 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
