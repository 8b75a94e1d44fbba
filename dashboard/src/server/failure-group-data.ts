import { type DashboardParams, filterQueryParams } from '../lib/dashboard-params';
import { type FailureFilters, failureFilterQueryParams, NO_FAILURE_FILTERS } from '../lib/failure-selection';
import { groupKey, loadNarrowedFailures, type NarrowedRow } from './narrowed-data';
import { idStr, num, panelQuery, str } from './run-panel-query';

export const FAILURE_GROUP_STATES = ['new', 'regressed', 'ongoing'] as const;

/** How far back a group's first occurrence is looked for (failure_groups.sql's lookback_from). */
export const FAILURE_GROUP_LOOKBACK_DAYS = 7;
/** A group is regressed when it was seen before but not in this many hours before the range. */
export const FAILURE_GROUP_QUIET_HOURS = 24;

export type FailureGroupState = (typeof FAILURE_GROUP_STATES)[number];

export interface FailureGroup {
  /** Shown text (visibleText); the `*Id` fields are the exact values, for links and keys. */
  service: string;
  serviceId: string;
  dependency: string;
  dependencyId: string;
  class: string;
  source: string;
  code: string;
  codeId: string;
  failures: number;
  /** Of them, the failures only a log record shows (a record with no span, sql/schema/070). */
  fromLogs: number;
  /** First-hand failures of the group in the previous range of the same length. */
  previous: number;
  trend: number;
  firstSeen: number;
  lastSeen: number;
  /** The last occurrence before the range (0 when none in the lookback). */
  lastSeenBefore: number;
  state: FailureGroupState;
  versions: string[];
  /** The group's newest failure: its request (correlation id, else trace id) and its span. */
  exampleCorrelationId: string;
  exampleTraceId: string;
  exampleSpanId: string;
}

/** The most groups the page lists (failure_groups.sql's limit): a total over more says so. */
export const FAILURE_GROUP_LIMIT = 500;

/**
 * failure_groups.sql's parameters beyond the time, service and source filters: the class and
 * dependency filters, the Failures page's own (code, none, outbound, counted), the previous range's
 * start and the lookback's.
 */
export function failureGroupExtraParams(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
): Record<string, string | number | string[]> {
  const { fromS, toS } = p.range;
  return {
    class: p.class,
    dependency: p.dependency,
    ...failureFilterQueryParams(p, f),
    prev_from: fromS - (toS - fromS),
    lookback_from: fromS - FAILURE_GROUP_LOOKBACK_DAYS * 86_400,
    limit: FAILURE_GROUP_LIMIT,
  };
}

/** Narrowed rows summed per group (over sources). */
function byGroup(rows: readonly NarrowedRow[]): Map<string, NarrowedRow> {
  const out = new Map<string, NarrowedRow>();
  for (const r of rows) {
    const k = groupKey(r);
    const g = out.get(k);
    if (!g) out.set(k, { ...r });
    else {
      g.failures += r.failures;
      if (r.lastSeen > g.lastSeen)
        Object.assign(g, {
          lastSeen: r.lastSeen,
          exampleCorrelationId: r.exampleCorrelationId,
          exampleTraceId: r.exampleTraceId,
          exampleSpanId: r.exampleSpanId,
        });
    }
  }
  return out;
}

/**
 * The groups narrowed by version, endpoint or message search: a group's state and first seen stay
 * the whole group's (failure_groups.sql's rule, in one place), its counts, trend, last seen and
 * example become those of its failures that match; a group with none is left out.
 */
async function narrowGroups(
  groups: FailureGroup[],
  p: DashboardParams,
  f: FailureFilters,
): Promise<FailureGroup[]> {
  const { fromS, toS } = p.range;
  const [cur, prev] = await Promise.all([
    loadNarrowedFailures(p, f),
    loadNarrowedFailures(p, f, { fromS: fromS - (toS - fromS), toS: fromS }),
  ]);
  const now = byGroup(cur);
  const before = byGroup(prev);
  return groups.flatMap((g) => {
    const key = groupKey({
      service: g.serviceId,
      dependency: g.dependencyId,
      class: g.class,
      code: g.codeId,
    });
    const n = now.get(key);
    if (!n) return [];
    const previous = before.get(key)?.failures ?? 0;
    return [
      {
        ...g,
        failures: n.failures,
        // The whole group's share, at most what the narrowing kept.
        fromLogs: Math.min(g.fromLogs, n.failures),
        previous,
        trend: n.failures - previous,
        lastSeen: n.lastSeen,
        exampleCorrelationId: n.exampleCorrelationId,
        exampleTraceId: n.exampleTraceId,
        exampleSpanId: n.exampleSpanId,
      },
    ];
  });
}

/** (service, dependency, class, code) groups of the range, newest and growing first (failure_groups.sql). */
export async function loadFailureGroups(
  p: DashboardParams,
  f: FailureFilters = NO_FAILURE_FILTERS,
): Promise<FailureGroup[]> {
  const { from, to, service, source } = filterQueryParams(p);
  const rows = await panelQuery('failure_groups', {
    from,
    to,
    service,
    source,
    ...failureGroupExtraParams(p, f),
  });
  const groups = rows.map((r): FailureGroup => {
    const state = idStr(r.state);
    return {
      service: str(r.service),
      serviceId: idStr(r.service),
      dependency: str(r.dependency),
      dependencyId: idStr(r.dependency),
      class: idStr(r.class),
      source: str(r.source),
      code: str(r.code),
      codeId: idStr(r.code),
      failures: num(r.failures),
      fromLogs: num(r.from_logs),
      previous: num(r.previous),
      trend: num(r.trend),
      firstSeen: num(r.first_seen),
      lastSeen: num(r.last_seen),
      lastSeenBefore: num(r.last_seen_before),
      state: state === 'new' || state === 'regressed' ? state : 'ongoing',
      versions: Array.isArray(r.versions) ? r.versions.map(str) : [],
      exampleCorrelationId: idStr(r.example_correlation_id),
      exampleTraceId: idStr(r.example_trace_id),
      exampleSpanId: idStr(r.example_span_id),
    };
  });
  const { version, endpoint, q } = p.narrow;
  return version || endpoint || q ? narrowGroups(groups, p, f) : groups;
}
