import { ingestStatus } from '../server/ingest-health.js';
import type { WriterStats } from '../types.js';
import type { MetricsIngestStats } from './metrics-ingest-stats.js';

/** The metrics receiver's part of /healthz: counts, and whether its accepted points reach the store. */
export interface MetricsHealth {
  status: 'ok' | 'degraded';
  problems: string[];
  /** Data points acknowledged (in the count log, or inserted). */
  accepted: number;
  /** Data points inserted into call_counts_1m. */
  inserted: number;
  pendingInsert: number;
  rejected: { invalid: number; saturated: number };
  ignored: number;
  insertErrors: number;
  quarantined: number;
}

export function metricsHealth(stats: MetricsIngestStats, w: WriterStats): MetricsHealth {
  // The span rules, worded for spans: say which log they are about.
  const { status, problems } = ingestStatus(w);
  return {
    status,
    problems: problems.map((p) => `call_counts_1m: ${p.replaceAll('spans', 'data points')}`),
    accepted: w.accepted,
    inserted: w.inserted,
    pendingInsert: w.pendingInsert,
    rejected: { invalid: stats.pointsInvalid, saturated: stats.pointsRefusedSaturated },
    ignored: stats.pointsIgnored,
    insertErrors: w.insertErrors,
    quarantined: w.quarantined,
  };
}
