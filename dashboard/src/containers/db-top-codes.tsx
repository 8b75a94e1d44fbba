import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent, formatTimeUtc } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadTopCodes, TOP_CODES_LIMIT } from '../server/overview-data';
import { sqlConsoleHref } from '../server/sql-links';

export async function DBTopCodes({ params }: { params: DashboardParams }) {
  const codes = await loadTopCodes(params);
  return (
    <section className="panel" aria-labelledby="codes-title">
      <h2 id="codes-title">
        Top codes{' '}
        <span className="muted">first-hand failures per service and dependency, first {TOP_CODES_LIMIT}</span>
      </h2>
      <table data-testid="top-codes">
        <thead>
          <tr>
            <th>service</th>
            <th>dependency</th>
            <th>class</th>
            <th>source</th>
            <th>code</th>
            <th>count</th>
            <th>retryable</th>
            <th>last seen</th>
            <th>example message</th>
          </tr>
        </thead>
        <tbody>
          {codes.map((c) => (
            <tr
              key={`${c.serviceId}/${c.dependencyId}/${c.class}/${c.source}/${c.code}`}
              data-testid="top-code"
              data-key={`${c.class}/${c.source}/${c.code}`}
              data-service={c.service}
              data-dependency={c.dependencyId}
              data-class={c.class}
              data-source={c.source}
              data-code={c.code}
              data-failures={c.failures}
            >
              <td>
                <ServiceLink params={params} service={c.serviceId} />
              </td>
              <td>
                {c.dependencyId ? (
                  <Link
                    href={dashboardHref('/', params, { service: c.serviceId, dependency: c.dependencyId })}
                  >
                    <code>{c.dependency}</code>
                  </Link>
                ) : null}
              </td>
              <td>
                <ClassBadge value={c.class} />
              </td>
              <td>{c.source}</td>
              <td>
                <code>{c.code}</code>
              </td>
              <td>
                <Link
                  href={sqlConsoleHref('dashboard/failures_by_class', params, {
                    class: c.class,
                    source: c.source,
                    service: c.service,
                  })}
                >
                  {formatCount(c.failures)}
                </Link>
              </td>
              <td>{formatPercent(c.failures ? c.retryableFailures / c.failures : 0, 0)}</td>
              <td className="nowrap">{formatTimeUtc(c.lastSeen)}</td>
              <td className="message">{c.exampleMessage}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
