import { ingestStatus } from '../server/ingest-health.js';
import type { WriterStats } from '../types.js';
import type { LogsIngestStats } from './logs-ingest-stats.js';

/** The logs receiver's part of /healthz: counts, and whether its accepted records reach the store. */
export interface LogsHealth {
  status: 'ok' | 'degraded';
  problems: string[];
  /** Log records acknowledged (in the log writer's log, or inserted). */
  accepted: number;
  /** Log records inserted into otel_logs. */
  inserted: number;
  pendingInsert: number;
  rejected: { invalid: number; saturated: number };
  /** Accepted records classified as failures. */
  failures: number;
  insertErrors: number;
  quarantined: number;
}

export function logsHealth(stats: LogsIngestStats, w: WriterStats): LogsHealth {
  // The span rules, worded for spans: say which log they are about.
  const { status, problems } = ingestStatus(w);
  return {
    status,
    problems: problems.map((p) => `otel_logs: ${p.replaceAll('spans', 'log records')}`),
    accepted: w.accepted,
    inserted: w.inserted,
    pendingInsert: w.pendingInsert,
    rejected: { invalid: stats.recordsInvalid, saturated: stats.recordsRefusedSaturated },
    failures: stats.failureRecords,
    insertErrors: w.insertErrors,
    quarantined: w.quarantined,
  };
}
