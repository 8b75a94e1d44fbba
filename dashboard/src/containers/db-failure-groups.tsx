import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import { DependencyName } from '../components/dependency-name';
import type { DashboardParams } from '../lib/dashboard-params';
import { type DeployMarker, deployAnchor } from '../lib/deploy-markers';
import { type FailureFilters, failureFilterLinkParams, NO_FAILURE_FILTERS } from '../lib/failure-selection';
import { formatCount, formatTime, formatTimeShort } from '../lib/format';
import { requestHref } from '../lib/request-href';
import { isoParam } from '../lib/time-range';
import { dashboardHref } from '../lib/url-state';
import { loadCallees } from '../server/dependency-callees';
import { loadDeployMarkers } from '../server/deploy-data';
import { displayZone } from '../server/display-zone';
import {
  FAILURE_GROUP_LIMIT,
  FAILURE_GROUP_LOOKBACK_DAYS,
  FAILURE_GROUP_QUIET_HOURS,
  FAILURE_GROUP_STATES,
  type FailureGroup,
  failureGroupExtraParams,
  loadFailureGroups,
} from '../server/failure-group-data';
import { sqlConsoleHref } from '../server/sql-links';

function trendText(g: FailureGroup): string {
  if (g.trend > 0) return `▲ +${formatCount(g.trend)}`;
  if (g.trend < 0) return `▼ ${formatCount(g.trend)}`;
  return '＝ 0';
}

/** Says when the group's failures came from log records rather than spans. */
function FromLogsNote({ group: g }: { group: FailureGroup }) {
  if (g.fromLogs <= 0) return null;
  const all = g.fromLogs >= g.failures;
  return (
    <span
      className="muted stacked"
      data-testid="group-from-logs"
      title="a log record with no span around it: the record is the failure"
    >
      {all
        ? g.failures === 1
          ? 'from a log record'
          : 'from log records'
        : `${formatCount(g.fromLogs)} from log records`}
    </span>
  );
}

/** The example failure's request with its span selected: the cause, one click from the group. */
function exampleHref(g: FailureGroup): string {
  // A failure only a log record shows has no span to select ('log:…', 070): the request, where the
  // record is listed.
  const span = g.exampleSpanId.startsWith('log:') ? undefined : g.exampleSpanId || undefined;
  return requestHref(g.exampleCorrelationId || g.exampleTraceId, span);
}

/** The newest deploy of that service's version in the range, if the range holds it. */
function deployOf(deploys: readonly DeployMarker[], service: string, version: string) {
  return deploys.findLast((d) => d.service === service && d.version === version);
}

/** Failure groups (service, dependency, class, code): which are new, which came back, which grow. */
export async function DBFailureGroups({
  params,
  filters = NO_FAILURE_FILTERS,
  state = '',
}: {
  params: DashboardParams;
  /** The Failures page's own filters (none, outbound, counted). */
  filters?: FailureFilters;
  /** Only the groups of this state ('' = all). */
  state?: string;
}) {
  const [all, callees, deploys, zone] = await Promise.all([
    loadFailureGroups(params, filters),
    loadCallees(params),
    loadDeployMarkers(params.range, params.service),
    displayZone(),
  ]);
  const counts = { new: 0, regressed: 0, ongoing: 0 };
  for (const g of all) counts[g.state] += 1;
  const groups = all.filter((g) => state === '' || g.state === state);
  const total = groups.reduce((s, g) => s + g.failures, 0);
  // This page with its state changed ('' removes it), the other filters kept.
  const here = (changes: Record<string, string | number | null>) =>
    dashboardHref('/failures', params, {
      ...failureFilterLinkParams(filters),
      state: state || null,
      ...changes,
    });
  // "New in this release": the failures of that version new since its deploy, the range starting
  // at the deploy marker (and the page scrolled to it); a release deployed before the range is
  // new since the range start.
  const releaseHref = (service: string, version: string) => {
    const d = deployOf(deploys, service, version);
    if (!d) return here({ state: 'new', version });
    const fromS = Math.floor(d.atMs / 60_000) * 60;
    return `${here({ state: 'new', version, range: null, from: isoParam(fromS), to: isoParam(params.range.toS) })}#${deployAnchor(service, version)}`;
  };
  return (
    <section className="panel" aria-labelledby="groups-title">
      <h2 id="groups-title">Failure groups: service × dependency × class × code</h2>
      <p className="muted" data-testid="groups-rule">
        First-hand failures of the range, grouped. <strong>New</strong>: no occurrence in the{' '}
        {FAILURE_GROUP_LOOKBACK_DAYS} days before the range starts (first seen inside the range).{' '}
        <strong>Regressed</strong>: seen in those {FAILURE_GROUP_LOOKBACK_DAYS} days, but not in the{' '}
        {FAILURE_GROUP_QUIET_HOURS} hours before the range starts (quiet for a day, then back). Trend: this
        range against the previous range of the same length. Newest and growing first.{' '}
        <Link
          data-testid="groups-query"
          href={sqlConsoleHref('dashboard/failure_groups', params, failureGroupExtraParams(params, filters))}
        >
          Open as a query
        </Link>
      </p>
      <p data-testid="groups-summary">
        {counts.new} new, {counts.regressed} regressed, {counts.ongoing} ongoing
      </p>
      <p data-testid="groups-total" data-failures={total}>
        <strong data-testid="groups-total-failures">{formatCount(total)}</strong> first-hand failures in{' '}
        {formatCount(groups.length)} {groups.length === 1 ? 'group' : 'groups'}
        {all.length >= FAILURE_GROUP_LIMIT ? (
          <span className="muted">
            {' '}
            (the first {FAILURE_GROUP_LIMIT} groups; narrow the filters for the rest)
          </span>
        ) : null}
      </p>
      <nav aria-label="Failure group state" className="filter-links" data-testid="state-filter">
        Show:{' '}
        {(['', ...FAILURE_GROUP_STATES] as const).map((s) => (
          <span key={s || 'all'}>
            {state === s ? (
              <strong aria-current="true">{s || 'all'}</strong>
            ) : (
              <Link data-testid={`state-${s || 'all'}`} href={here({ state: s || null })}>
                {s === 'new' ? 'new since the range start' : s || 'all'}
              </Link>
            )}{' '}
          </span>
        ))}
      </nav>
      {groups.length === 0 ? (
        <p className="muted" data-testid="groups-empty">
          No first-hand failure in this range.
        </p>
      ) : (
        <table data-testid="failure-groups">
          <thead>
            <tr>
              <th>state</th>
              <th>service</th>
              <th>dependency</th>
              <th>class</th>
              <th>source</th>
              <th>code</th>
              <th className="num">failures</th>
              <th title="the group's newest failure, its span selected">example request</th>
              <th className="num" title="this range against the previous range of the same length">
                trend (previous)
              </th>
              <th>first / last seen ({zone})</th>
              <th>versions</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr
                key={`${g.serviceId}\u0000${g.dependencyId}\u0000${g.class}\u0000${g.codeId}`}
                data-testid="failure-group"
                data-state={g.state}
                data-service={g.serviceId}
                data-dependency={g.dependencyId}
                data-class={g.class}
                data-code={g.codeId}
                data-failures={g.failures}
                data-previous={g.previous}
              >
                <td className={g.state === 'ongoing' ? undefined : 'bad'}>
                  <strong>{g.state}</strong>
                  {g.state === 'regressed' && g.lastSeenBefore > 0 ? (
                    <span className="muted"> (last before: {formatTime(g.lastSeenBefore, zone)})</span>
                  ) : null}
                </td>
                <td>
                  <Link className="service-name" href={dashboardHref('/', params, { service: g.serviceId })}>
                    {g.service}
                  </Link>
                </td>
                <td className="dep-name">
                  {g.dependencyId ? (
                    <Link
                      href={dashboardHref('/dependencies', params, {
                        service: g.serviceId,
                        dependency: g.dependencyId,
                      })}
                    >
                      <DependencyName dependency={g.dependencyId} callee={callees.get(g.dependencyId)} />
                    </Link>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  <ClassBadge value={g.class} />
                </td>
                <td>{g.source}</td>
                <td>
                  <code>{g.code}</code>
                  <FromLogsNote group={g} />
                </td>
                <td className="num">{formatCount(g.failures)}</td>
                <td className="example">
                  {g.exampleCorrelationId || g.exampleTraceId ? (
                    <Link
                      data-testid="group-example"
                      href={exampleHref(g)}
                      title={visibleText(g.exampleCorrelationId || g.exampleTraceId)}
                    >
                      {g.exampleCorrelationId ? null : 'trace '}
                      <code>{visibleText(g.exampleCorrelationId || g.exampleTraceId)}</code>
                    </Link>
                  ) : null}
                </td>
                <td className="num">
                  <span className={g.trend > 0 ? 'bad' : undefined}>{trendText(g)}</span>
                  <span className="muted stacked">from {formatCount(g.previous)}</span>
                </td>
                <td className="nowrap">
                  <span className="stacked" title={`first seen ${formatTime(g.firstSeen, zone)}`}>
                    {formatTimeShort(g.firstSeen, zone)}
                  </span>
                  <span className="stacked muted" title={`last seen ${formatTime(g.lastSeen, zone)}`}>
                    {formatTimeShort(g.lastSeen, zone)}
                  </span>
                </td>
                <td data-testid="group-versions">
                  {g.versions.length > 0 ? (
                    g.versions.map((v, i) => (
                      <span key={v}>
                        {i > 0 ? ', ' : ''}
                        <Link
                          data-testid="group-version"
                          href={releaseHref(g.serviceId, v)}
                          title={`failures new in ${v}${deployOf(deploys, g.serviceId, v) ? ', since its deploy' : ''}`}
                        >
                          {visibleText(v)}
                        </Link>
                      </span>
                    ))
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
