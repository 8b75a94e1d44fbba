import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { FIRST_HAND } from '../components/counting-note';
import { DependencyName } from '../components/dependency-name';
import { ServiceLink } from '../components/service-link';
import { type MapEdge, ServiceMap } from '../components/service-map';
import type { DashboardParams } from '../lib/dashboard-params';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { failuresHref } from '../lib/failure-selection';
import { formatCount, formatPercent } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import { type DependencyEdge, loadDependencies } from '../server/dependency-data';

function overviewHref(params: DashboardParams, e: DependencyEdge): string {
  return dashboardHref('/', params, { service: e.serviceId, dependency: e.dependencyId });
}

/** The edge's first-hand failures (of one class, one code) as failure groups: what the counts count. */
function edgeFailuresHref(
  params: DashboardParams,
  e: DependencyEdge,
  more: { class?: string; code?: string } = {},
) {
  return failuresHref(params, { service: e.serviceId, dependency: e.dependencyId, outbound: true, ...more });
}

/**
 * Which dependency is failing: each service → dependency edge, most of its service's error budget
 * consumed first, as a service map and as the table of its numbers. Each edge opens the Overview
 * filtered to it (its calls), each failure count the edge's failure groups.
 */
export async function DBDependencies({ params }: { params: DashboardParams }) {
  const edges = await loadDependencies(params);
  const mapEdges: MapEdge[] = edges.map((e) => ({
    service: e.serviceId,
    dependency: e.dependencyId,
    callee: e.calleeId,
    byClass: e.byClass,
    failures: e.failures,
    calls: e.calls,
    dominantClass: e.dominantClass,
    href: overviewHref(params, e),
  }));
  return (
    <>
      <section className="panel" aria-labelledby="map-title">
        <h2 id="map-title">
          Service map{' '}
          <span className="muted">
            edges coloured by their dominant class, thicker with more first-hand failures
          </span>
        </h2>
        {edges.length === 0 ? <p className="muted">No edge to draw.</p> : <ServiceMap edges={mapEdges} />}
      </section>
      <section className="panel" aria-labelledby="deps-title">
        <h2 id="deps-title">
          Dependencies: what each service calls{' '}
          <span className="muted">
            most budget consumed first (SLO {params.slo}% over {params.periodDays} days)
          </span>
        </h2>
        {edges.length === 0 ? (
          <p className="muted" data-testid="deps-empty">
            No client call in this range names what it calls (server.address, url.full, peer.service,
            db.system, rpc.service or a messaging destination), or none matches the filters.
          </p>
        ) : (
          <table data-testid="dependencies" title={FIRST_HAND}>
            <thead>
              <tr>
                <th>service</th>
                <th>dependency</th>
                <th
                  className="num"
                  title="share of the service's error budget the edge's first-hand failures spent in this range"
                >
                  budget consumed
                </th>
                <th className="num">calls</th>
                <th className="num">
                  <span className="nowrap">first-hand</span> failures
                </th>
                <th>by class</th>
                <th className="num">error rate</th>
                <th className="num" title="latency of the edge's calls: median, 95th percentile under it">
                  <span className="stacked">p50</span>
                  <span className="stacked muted">p95</span>
                </th>
                <th
                  className="num"
                  title="retries; misrouted: repeats of a call after a failure that said not to retry"
                >
                  retries <span className="nowrap">(misrouted)</span>
                </th>
                <th>top codes</th>
              </tr>
            </thead>
            <tbody>
              {edges.map((e) => (
                <tr
                  key={`${e.serviceId}\u0000${e.dependencyId}`}
                  data-testid="dependency-edge"
                  data-service={e.serviceId}
                  data-dependency={e.dependencyId}
                  data-callee={e.calleeId || undefined}
                  data-calls={e.calls}
                  data-failures={e.failures}
                  data-retries={e.retries}
                  data-misrouted={e.misrouted}
                  data-budget-share={e.budgetShare}
                  data-dominant-class={e.dominantClass}
                >
                  <td className="nowrap">
                    <ServiceLink params={params} service={e.serviceId} />
                  </td>
                  <td className="dep-name">
                    <Link data-testid="edge-link" href={overviewHref(params, e)}>
                      <DependencyName dependency={e.dependencyId} callee={e.calleeId} testIdPrefix="edge" />
                    </Link>
                  </td>
                  <td className="num" data-testid="edge-budget">
                    {formatPercent(e.budgetShare, 2)}
                  </td>
                  <td className="num">
                    <Link
                      data-testid="edge-calls"
                      href={overviewHref(params, e)}
                      title="the Overview filtered to this edge: its calls, failures and codes"
                    >
                      {formatCount(e.calls)}
                    </Link>
                  </td>
                  <td className="num">
                    {e.failures > 0 ? (
                      <Link data-testid="edge-failures" href={edgeFailuresHref(params, e)}>
                        {formatCount(e.failures)}
                      </Link>
                    ) : (
                      formatCount(e.failures)
                    )}
                    {e.failures > 0 && e.calleeUnsampled > 0 ? (
                      <span
                        className="stacked muted"
                        data-testid="edge-unsampled-callee"
                        title={`${e.callee || e.dependency} samples out about ${formatPercent(e.calleeUnsampled)} of its traces: a failed call whose callee span was dropped cannot be seen as its echo, so some of these first-hand failures may be the callee's own`}
                      >
                        callee sampled {formatPercent(1 - e.calleeUnsampled)}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {FAILURE_CLASSES.filter((c) => e.byClass[c]).map((c) => (
                      <span key={c} className="nowrap edge-class" data-class={c} data-count={e.byClass[c]}>
                        <ClassBadge value={c} />{' '}
                        <Link data-testid="edge-class-count" href={edgeFailuresHref(params, e, { class: c })}>
                          {formatCount(e.byClass[c] ?? 0)}
                        </Link>{' '}
                      </span>
                    ))}
                  </td>
                  <td className="num">{formatPercent(e.errorRate)}</td>
                  <td className="num">
                    <span className="stacked" data-testid="edge-p50">
                      {e.p50Ms.toFixed(1)} ms
                    </span>
                    <span className="stacked muted" data-testid="edge-p95">
                      {e.p95Ms.toFixed(1)} ms
                    </span>
                  </td>
                  <td className="num">
                    {formatCount(e.retries)}
                    {e.misrouted > 0 ? <span className="bad"> ({formatCount(e.misrouted)})</span> : null}
                  </td>
                  <td>
                    {e.topCodes.map((c) => (
                      <span
                        key={`${c.class}/${c.code}`}
                        className="edge-code"
                        data-testid="edge-code"
                        data-code={`${c.class}/${c.code}`}
                        data-failures={c.failures}
                      >
                        <ClassBadge value={c.class} />{' '}
                        <span className="nowrap">
                          <code>{c.code}</code>{' '}
                          <Link
                            data-testid="edge-code-count"
                            href={edgeFailuresHref(params, e, { class: c.class, code: c.codeId })}
                          >
                            ×{formatCount(c.failures)}
                          </Link>
                        </span>{' '}
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
