import { Registry } from 'prom-client';
import { liveCounter, liveGauge, perScrape } from '../metrics/live-metrics.js';
import type { WriterStats } from '../types.js';
import type { MetricsIngestStats } from './metrics-ingest-stats.js';

/**
 * The metrics receiver's counters on /metrics, beside the span ones and named like them with
 * `metric_points` for `spans`: the receiver's verdicts from `stats`, durability from the count
 * writer's stats (read once per scrape).
 */
export function metricsIngestRegistry(stats: MetricsIngestStats, writerStats: () => WriterStats): Registry {
  const registry = new Registry();
  const w = perScrape(writerStats);
  const counter = (name: string, help: string, read: () => number) =>
    liveCounter(registry, { name, help, read });
  liveCounter(registry, {
    name: 'faultline_otlp_metrics_responses_total',
    help: 'Responses to POST /v1/metrics and gRPC MetricsService/Export, by HTTP status.',
    labelNames: ['code'],
    read: () => stats.byCode(),
  });
  counter(
    'faultline_metric_points_accepted_total',
    "faultline.calls/faultline.failures data points acknowledged durable (fsync'd to the count log, or inserted).",
    () => w().accepted,
  );
  liveCounter(registry, {
    name: 'faultline_metric_points_rejected_total',
    help: 'faultline.* data points not accepted, by reason: invalid (not a delta Sum, bad value or time), saturated.',
    labelNames: ['reason'],
    read: () => [
      [{ reason: 'invalid' }, stats.pointsInvalid],
      [{ reason: 'saturated' }, stats.pointsRefusedSaturated],
    ],
  });
  counter(
    'faultline_metric_points_ignored_total',
    'Data points of metrics other than faultline.calls and faultline.failures: accepted, not stored.',
    () => stats.pointsIgnored,
  );
  counter(
    'faultline_metric_points_inserted_total',
    'Data points inserted into call_counts_1m.',
    () => w().inserted,
  );
  liveGauge(registry, {
    name: 'faultline_metric_points_pending_insert',
    help: 'Data points acknowledged but not yet inserted into call_counts_1m; 0 once idle.',
    read: () => w().pendingInsert,
  });
  counter(
    'faultline_metric_insert_errors_total',
    'Failed call_counts_1m insert attempts.',
    () => w().insertErrors,
  );
  counter(
    'faultline_metric_points_quarantined_total',
    'Data points ClickHouse refused on their own, kept with the reason in <wal>/call_counts_1m/rejected.',
    () => w().quarantined,
  );
  return registry;
}
