import type { DashboardParams } from '../lib/dashboard-params';
import { type DeployMarker, deployMarkers, type VersionBucket } from '../lib/deploy-markers';
import { idStr, num, panelQuery } from './run-panel-query';

/** How far before a range deploys are looked for, at least: a quiet service's previous minutes. */
const LOOKBACK_S = 15 * 60;

/** A chart shows at most this many deploys: more is a flapping canary, listed in its table. */
export const MAX_CHART_MARKERS = 20;

/** Each service's versions per bucket of a range (service_versions.sql); shared by markers and filter choices. */
async function loadVersionBuckets(
  range: { fromS: number; toS: number; bucketS: number },
  service: string,
): Promise<VersionBucket[]> {
  const rows = await panelQuery('service_versions', {
    from: range.fromS,
    to: range.toS,
    service,
    bucket: range.bucketS,
  });
  return rows.map((r) => ({
    service: idStr(r.service),
    version: idStr(r.version),
    t: num(r.t),
    firstSeenMs: num(r.first_seen_ms),
  }));
}

/**
 * The versions per bucket of a range and a little before it, so that a deploy in its first minutes
 * (a release link's range starts at the deploy) is told from a version that was running before.
 * One read serves the markers and the version filter's suggestions.
 */
function versionBucketsAround(range: { fromS: number; toS: number; bucketS: number }, service: string) {
  const lookbackS = Math.max(range.bucketS, LOOKBACK_S);
  const fromS = Math.floor((range.fromS - lookbackS) / range.bucketS) * range.bucketS;
  return loadVersionBuckets({ ...range, fromS }, service);
}

/**
 * Deploys in a range (service.version changes), for one service or all. Markers only: a failing
 * read leaves the chart without them rather than failing the page.
 */
export async function loadDeployMarkers(
  range: { fromS: number; toS: number; bucketS: number },
  service: string,
): Promise<DeployMarker[]> {
  try {
    const rows = await versionBucketsAround(range, service);
    return deployMarkers(rows).filter((m) => m.atMs >= range.fromS * 1000);
  } catch (err) {
    console.error('faultline: deploy markers unavailable:', err);
    return [];
  }
}

export interface NarrowingOptions {
  codes: string[];
  versions: string[];
  endpoints: string[];
}

/** The code, version and endpoint filters' suggestions for the page's range and service. */
export async function loadNarrowingOptions(p: DashboardParams): Promise<NarrowingOptions> {
  try {
    const [rows, versions] = await Promise.all([
      panelQuery('narrowing_options', { from: p.range.fromS, to: p.range.toS, service: p.service }),
      versionBucketsAround(p.range, p.service),
    ]);
    const row = rows[0] ?? {};
    const list = (v: unknown) => (Array.isArray(v) ? v.map(idStr) : []);
    return {
      codes: list(row.codes),
      endpoints: list(row.endpoints),
      versions: [
        ...new Set(versions.filter((v) => v.t + p.range.bucketS > p.range.fromS).map((v) => v.version)),
      ].sort(),
    };
  } catch (err) {
    console.error('faultline: filter suggestions unavailable:', err);
    return { codes: [], versions: [], endpoints: [] };
  }
}
