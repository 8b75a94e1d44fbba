import type { ExportFailure } from '../ingest/ingest-export.js';
import { ingestSignalRows } from '../ingest/ingest-signal-rows.js';
import type { BodyBudget } from '../ingest/read-body.js';
import type { OtlpEncoding } from '../otlp/otlp-responses.js';
import { decodeMetrics } from './decode-metrics.js';
import type { MetricsHandlerDeps } from './metrics-handler-deps.js';

/** What became of one metrics export; failures are answered exactly as trace exports are. */
export type MetricsOutcome = { ok: true; rejectedPoints: number; message: string } | ExportFailure;

/**
 * One metrics export through the side signals' rules (ingestSignalRows), into the count writer.
 * Refusals that need no body: only shutdown; the count writer's saturation is met when it refuses
 * a write (metrics exports are small and rare next to spans).
 */
export async function ingestMetricsExport(
  deps: MetricsHandlerDeps,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<MetricsOutcome> {
  const { stats } = deps;
  const outcome = await ingestSignalRows(
    {
      receiver: deps.receiver,
      stats,
      noun: 'data points',
      decode: (body, enc) => decodeMetrics(body, enc, deps.receiver.config),
      rejectedOf: (decoded) => decoded.rejectedPoints,
      write: (rows) => deps.writer.write(rows),
      countDecoded: (decoded) => {
        stats.pointsInvalid += decoded.rejectedPoints;
        stats.pointsIgnored += decoded.ignoredPoints;
      },
      countRefused: (points) => {
        stats.pointsRefusedSaturated += points;
      },
    },
    encoding,
    read,
  );
  return outcome.ok ? { ok: true, rejectedPoints: outcome.rejected, message: outcome.message } : outcome;
}
