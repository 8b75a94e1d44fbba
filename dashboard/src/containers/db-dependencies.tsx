import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { formatCount, formatPercent } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadDependencies } from '../server/dependency-data';

/** Which dependency is failing: each service → dependency edge, most first-hand failures first. */
export async function DBDependencies({ params }: { params: DashboardParams }) {
  const edges = await loadDependencies(params);
  return (
    <section className="panel" aria-labelledby="deps-title">
      <h2 id="deps-title">Dependencies: what each service calls</h2>
      {edges.length === 0 ? (
        <p className="muted" data-testid="deps-empty">
          No client call in this range names what it calls (server.address, url.full, peer.service, db.system,
          rpc.service or a messaging destination).
        </p>
      ) : (
        <table data-testid="dependencies">
          <thead>
            <tr>
              <th>service</th>
              <th>dependency</th>
              <th>calls</th>
              <th>first-hand failures</th>
              {FAILURE_CLASSES.map((c) => (
                <th key={c}>
                  <ClassBadge value={c} />
                </th>
              ))}
              <th>error rate</th>
              <th>p50</th>
              <th>p95</th>
            </tr>
          </thead>
          <tbody>
            {edges.map((e) => (
              <tr
                key={`${e.serviceId}\u0000${e.dependency}`}
                data-testid="dependency-edge"
                data-service={e.serviceId}
                data-dependency={e.dependency}
                data-calls={e.calls}
                data-failures={e.failures}
              >
                <td>
                  <Link href={dashboardHref('/', params, { service: e.serviceId })}>{e.service}</Link>
                </td>
                <td>
                  <code>{e.dependency}</code>
                </td>
                <td>{formatCount(e.calls)}</td>
                <td>{formatCount(e.failures)}</td>
                {FAILURE_CLASSES.map((c) => (
                  <td key={c} data-class={c}>
                    {e.byClass[c] ? formatCount(e.byClass[c]) : ''}
                  </td>
                ))}
                <td>{formatPercent(e.errorRate)}</td>
                <td className="nowrap">{e.p50Ms.toFixed(1)} ms</td>
                <td className="nowrap">{e.p95Ms.toFixed(1)} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
