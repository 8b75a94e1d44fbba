import { visibleText } from '@faultline/sql/format';
import Link from 'next/link';
import { ClassBadge } from '../components/class-badge';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatTimeUtc } from '../lib/format';
import { dashboardHref } from '../lib/url-state';
import {
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

/** Failure groups (service, dependency, class, code): which are new, which came back, which grow. */
export async function DBFailureGroups({
  params,
  state = '',
  version = '',
}: {
  params: DashboardParams;
  /** Only the groups of this state ('' = all). */
  state?: string;
  /** Only the groups seen in this service.version ('' = all). */
  version?: string;
}) {
  const all = await loadFailureGroups(params);
  const counts = { new: 0, regressed: 0, ongoing: 0 };
  for (const g of all) counts[g.state] += 1;
  const groups = all.filter(
    (g) => (state === '' || g.state === state) && (version === '' || g.versions.includes(version)),
  );
  // This page with the state and version filters changed ('' removes one), the others kept.
  const here = (extra: { state?: string; version?: string }) => {
    const next = { state, version, ...extra };
    return dashboardHref('/failures', params, { state: next.state || null, version: next.version || null });
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
          href={sqlConsoleHref('dashboard/failure_groups', params, failureGroupExtraParams(params))}
        >
          Open as a query
        </Link>
      </p>
      <p data-testid="groups-summary">
        {counts.new} new, {counts.regressed} regressed, {counts.ongoing} ongoing
      </p>
      <nav aria-label="Failure group state" className="filter-links" data-testid="state-filter">
        Show:{' '}
        {(['', ...FAILURE_GROUP_STATES] as const).map((s) => (
          <span key={s || 'all'}>
            {state === s ? (
              <strong aria-current="true">{s || 'all'}</strong>
            ) : (
              <Link data-testid={`state-${s || 'all'}`} href={here({ state: s })}>
                {s === 'new' ? 'new since the range start' : s || 'all'}
              </Link>
            )}{' '}
          </span>
        ))}
        {version ? (
          <span data-testid="version-filter">
            · in version <code>{visibleText(version)}</code> (
            <Link href={here({ version: '' })}>any version</Link>)
          </span>
        ) : null}
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
              <th>failures</th>
              <th>previous range</th>
              <th>trend</th>
              <th>first seen</th>
              <th>last seen</th>
              <th>versions</th>
              <th>example request</th>
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
                    <span className="muted"> (last before: {formatTimeUtc(g.lastSeenBefore)})</span>
                  ) : null}
                </td>
                <td>
                  <Link href={dashboardHref('/', params, { service: g.serviceId })}>{g.service}</Link>
                </td>
                <td>
                  {g.dependencyId ? (
                    <Link
                      href={dashboardHref('/dependencies', params, {
                        service: g.serviceId,
                        dependency: g.dependencyId,
                      })}
                    >
                      <code>{g.dependency}</code>
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
                </td>
                <td>{formatCount(g.failures)}</td>
                <td>{formatCount(g.previous)}</td>
                <td className={g.trend > 0 ? 'bad nowrap' : 'nowrap'}>{trendText(g)}</td>
                <td className="nowrap">{formatTimeUtc(g.firstSeen)}</td>
                <td className="nowrap">{formatTimeUtc(g.lastSeen)}</td>
                <td>
                  {g.versions.length > 0 ? (
                    g.versions.map((v, i) => (
                      <span key={v}>
                        {i > 0 ? ', ' : ''}
                        <Link data-testid="group-version" href={here({ version: v, state: 'new' })}>
                          {visibleText(v)}
                        </Link>
                      </span>
                    ))
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  {g.exampleCorrelationId ? (
                    <Link
                      data-testid="group-example"
                      href={`/request?id=${encodeURIComponent(g.exampleCorrelationId)}`}
                    >
                      <code>{visibleText(g.exampleCorrelationId)}</code>
                    </Link>
                  ) : g.exampleTraceId ? (
                    <Link
                      data-testid="group-example"
                      href={`/request?id=${encodeURIComponent(g.exampleTraceId)}`}
                    >
                      trace <code>{visibleText(g.exampleTraceId)}</code>
                    </Link>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
