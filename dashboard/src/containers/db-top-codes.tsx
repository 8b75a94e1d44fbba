import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { DependencyName } from '../components/dependency-name';
import { ServiceLink } from '../components/service-link';
import type { DashboardParams } from '../lib/dashboard-params';
import { failuresHref } from '../lib/failure-selection';
import { formatCount, formatPercent, formatTime, formatTimeShort } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { loadCallees } from '../server/dependency-callees';
import { displayZone } from '../server/display-zone';
import { loadTopCodes, TOP_CODES_LIMIT } from '../server/overview-data';

/**
 * The most frequent first-hand codes per service and dependency. Each count opens the failure
 * groups of exactly its service, dependency, class, source and code (none named counts as a value).
 */
export async function DBTopCodes({ params }: { params: DashboardParams }) {
  const [codes, callees, zone] = await Promise.all([
    loadTopCodes(params),
    loadCallees(params),
    displayZone(),
  ]);
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
            <th className="num">failures</th>
            <th className="num">retryable</th>
            <th>last seen ({zone})</th>
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
              <td className="dep-name">
                {c.dependencyId ? (
                  <Link
                    href={dashboardHref('/', params, { service: c.serviceId, dependency: c.dependencyId })}
                  >
                    <DependencyName dependency={c.dependencyId} callee={callees.get(c.dependencyId)} />
                  </Link>
                ) : (
                  <span className="muted" title="a server's own rejection, or a call that names nothing">
                    none named
                  </span>
                )}
              </td>
              <td>
                <ClassBadge value={c.class} />
              </td>
              <td>{c.source}</td>
              <td>
                <code>{c.code}</code>
              </td>
              <td className="num">
                <Link
                  data-testid="top-code-count"
                  href={failuresHref(params, {
                    service: c.serviceId,
                    dependency: c.dependencyId,
                    class: c.class,
                    source: c.sourceId,
                    code: c.codeId,
                  })}
                >
                  {formatCount(c.failures)}
                </Link>
              </td>
              <td className="num">{formatPercent(c.failures ? c.retryableFailures / c.failures : 0, 0)}</td>
              <td className="nowrap" title={formatTime(c.lastSeen, zone)}>
                {formatTimeShort(c.lastSeen, zone)}
              </td>
              <td className="message">{c.exampleMessage}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
