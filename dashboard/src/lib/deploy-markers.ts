/** One service's version seen in one bucket of the range (service_versions.sql). */
export interface VersionBucket {
  service: string;
  version: string;
  /** Bucket start, unix seconds. */
  t: number;
  /** The version's first span in the bucket, epoch ms. */
  firstSeenMs: number;
}

/** A deploy: a service.version that appeared after a stretch of the service's spans without it. */
export interface DeployMarker {
  service: string;
  version: string;
  /** Its first span, epoch ms. */
  atMs: number;
  /** The versions the service ran in its bucket before (what it replaced, or ran beside). */
  previous: string[];
}

/**
 * Deploys from versions per bucket: per service, each version present in a bucket but not in that
 * service's previous bucket with spans (a release, a rollback; a gap without spans is no change).
 * The service's first bucket of the range marks nothing: its versions were deployed before it.
 */
export function deployMarkers(rows: readonly VersionBucket[]): DeployMarker[] {
  const byService = new Map<string, Map<number, Map<string, number>>>();
  for (const r of rows) {
    const buckets = byService.get(r.service) ?? new Map<number, Map<string, number>>();
    const versions = buckets.get(r.t) ?? new Map<string, number>();
    versions.set(r.version, Math.min(versions.get(r.version) ?? r.firstSeenMs, r.firstSeenMs));
    buckets.set(r.t, versions);
    byService.set(r.service, buckets);
  }
  const markers: DeployMarker[] = [];
  for (const [service, buckets] of byService) {
    let previous: string[] | null = null;
    for (const t of [...buckets.keys()].sort((a, b) => a - b)) {
      const versions = buckets.get(t) as Map<string, number>;
      if (previous !== null) {
        for (const [version, atMs] of versions)
          if (!previous.includes(version)) markers.push({ service, version, atMs, previous });
      }
      previous = [...versions.keys()].sort();
    }
  }
  return markers.sort((a, b) => a.atMs - b.atMs || a.service.localeCompare(b.service));
}

/** The id of a marker's row under its chart, which a failure group's release link points to. */
export function deployAnchor(service: string, version: string): string {
  return `deploy-${encodeURIComponent(service)}-${encodeURIComponent(version)}`.replace(/%/g, '_');
}
