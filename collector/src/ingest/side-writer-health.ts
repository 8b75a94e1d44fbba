import { ingestStatus } from '../server/ingest-health.js';
import type { WriterStats } from '../types.js';

/** A side signal's writer in /healthz: whether its accepted rows reach the store, and its counts. */
export interface SideWriterHealth {
  status: 'ok' | 'degraded';
  problems: string[];
  /** Rows acknowledged (in the writer's log, or inserted). */
  accepted: number;
  /** Rows inserted into the signal's table. */
  inserted: number;
  pendingInsert: number;
  rejected: { invalid: number; saturated: number };
  insertErrors: number;
  quarantined: number;
}

/**
 * The span writer's health rules (ingestStatus), worded for spans, applied to a side signal's
 * writer: each problem names the table and what its rows are ("otel_logs: … log records").
 */
export function sideWriterHealth(
  table: string,
  noun: string,
  w: WriterStats,
  rejected: SideWriterHealth['rejected'],
): SideWriterHealth {
  const { status, problems } = ingestStatus(w);
  return {
    status,
    problems: problems.map((p) => `${table}: ${p.replaceAll('spans', noun)}`),
    accepted: w.accepted,
    inserted: w.inserted,
    pendingInsert: w.pendingInsert,
    rejected,
    insertErrors: w.insertErrors,
    quarantined: w.quarantined,
  };
}
