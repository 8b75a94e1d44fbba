import { Registry } from 'prom-client';
import { liveCounter, liveGauge, perScrape } from '../metrics/live-metrics.js';
import type { WriterStats } from '../types.js';
import type { LogsIngestStats } from './logs-ingest-stats.js';

/**
 * The logs receiver's counters on /metrics, beside the span ones and named like them with
 * `log_records` for `spans`: the receiver's verdicts from `stats`, durability from the log writer's
 * stats (read once per scrape).
 */
export function logsIngestRegistry(stats: LogsIngestStats, writerStats: () => WriterStats): Registry {
  const registry = new Registry();
  const w = perScrape(writerStats);
  const counter = (name: string, help: string, read: () => number) =>
    liveCounter(registry, { name, help, read });
  liveCounter(registry, {
    name: 'faultline_otlp_logs_responses_total',
    help: 'Responses to POST /v1/logs and gRPC LogsService/Export, by HTTP status.',
    labelNames: ['code'],
    read: () => stats.byCode(),
  });
  counter(
    'faultline_log_records_accepted_total',
    "Log records acknowledged durable (fsync'd to the log writer's write-ahead log, or inserted).",
    () => w().accepted,
  );
  liveCounter(registry, {
    name: 'faultline_log_records_rejected_total',
    help: 'Log records not accepted, by reason: invalid (unusable ids, impossible time), saturated.',
    labelNames: ['reason'],
    read: () => [
      [{ reason: 'invalid' }, stats.recordsInvalid],
      [{ reason: 'saturated' }, stats.recordsRefusedSaturated],
    ],
  });
  counter(
    'faultline_log_records_failures_total',
    'Accepted log records that show a failure, classified into an envelope.',
    () => stats.failureRecords,
  );
  counter('faultline_log_records_inserted_total', 'Log records inserted into otel_logs.', () => w().inserted);
  liveGauge(registry, {
    name: 'faultline_log_records_pending_insert',
    help: 'Log records acknowledged but not yet inserted into otel_logs; 0 once idle.',
    read: () => w().pendingInsert,
  });
  counter('faultline_log_insert_errors_total', 'Failed otel_logs insert attempts.', () => w().insertErrors);
  counter(
    'faultline_log_records_quarantined_total',
    'Log records ClickHouse refused on their own, kept with the reason in <wal>/otel_logs/rejected.',
    () => w().quarantined,
  );
  return registry;
}
