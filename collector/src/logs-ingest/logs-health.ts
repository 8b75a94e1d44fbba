import { type SideWriterHealth, sideWriterHealth } from '../ingest/side-writer-health.js';
import type { WriterStats } from '../types.js';
import type { LogsIngestStats } from './logs-ingest-stats.js';

/** The logs receiver's part of /healthz: its writer into otel_logs, and the records that were failures. */
export interface LogsHealth extends SideWriterHealth {
  /** Accepted records classified as failures. */
  failures: number;
}

export function logsHealth(stats: LogsIngestStats, w: WriterStats): LogsHealth {
  return {
    ...sideWriterHealth('otel_logs', 'log records', w, {
      invalid: stats.recordsInvalid,
      saturated: stats.recordsRefusedSaturated,
    }),
    failures: stats.failureRecords,
  };
}
