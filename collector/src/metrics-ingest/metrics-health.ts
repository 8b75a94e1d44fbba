import { type SideWriterHealth, sideWriterHealth } from '../ingest/side-writer-health.js';
import type { WriterStats } from '../types.js';
import type { MetricsIngestStats } from './metrics-ingest-stats.js';

/** The metrics receiver's part of /healthz: its writer into call_counts_1m, and the points ignored. */
export interface MetricsHealth extends SideWriterHealth {
  /** Points of metrics other than Faultline's counts, accepted and not stored. */
  ignored: number;
}

export function metricsHealth(stats: MetricsIngestStats, w: WriterStats): MetricsHealth {
  return {
    ...sideWriterHealth('call_counts_1m', 'data points', w, {
      invalid: stats.pointsInvalid,
      saturated: stats.pointsRefusedSaturated,
    }),
    ignored: stats.pointsIgnored,
  };
}
