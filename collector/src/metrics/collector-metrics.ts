import { Registry } from 'prom-client';
import type { ReceiverStats } from '../ingest/receiver-stats.js';
import type { WriterStats } from '../types.js';
import { liveCounter, liveGauge, perScrape, snapshotHistogram } from './live-metrics.js';

/**
 * One collector's /metrics: the receiver's and the writer's counters, each read from `receiver`
 * and from `writerStats()` (once per scrape) when scraped. Without the process metrics: the caller
 * adds them with withProcessMetrics.
 */
export function collectorMetrics(receiver: ReceiverStats, writerStats: () => WriterStats): Registry {
  const registry = new Registry();
  const w = perScrape(writerStats);
  const counter = (name: string, help: string, read: () => number) =>
    liveCounter(registry, { name, help, read });
  const gauge = (name: string, help: string, read: () => number) => liveGauge(registry, { name, help, read });

  liveCounter(registry, {
    name: 'faultline_otlp_responses_total',
    help: 'Responses to POST /v1/traces by HTTP status.',
    labelNames: ['code'],
    read: () => receiver.byCode(),
  });
  counter(
    'faultline_spans_accepted_total',
    "Spans acknowledged durable (inserted, or fsync'd to the write-ahead log or spool).",
    () => w().accepted,
  );
  liveCounter(registry, {
    name: 'faultline_spans_rejected_total',
    help: 'Spans not accepted, by reason.',
    labelNames: ['reason'],
    read: () => [
      [{ reason: 'invalid' }, receiver.spansInvalid],
      [{ reason: 'saturated' }, receiver.spansRefusedSaturated],
    ],
  });
  counter(
    'faultline_spans_spooled_total',
    'Spans written to local disk before insert: every span in wal mode, spans whose insert failed in insert mode.',
    () => w().spooled,
  );
  counter(
    'faultline_spans_replayed_total',
    'Spans inserted from the write-ahead log or spool.',
    () => w().replayed,
  );
  counter('faultline_spans_inserted_total', 'Spans inserted into ClickHouse.', () => w().inserted);
  gauge(
    'faultline_writer_queue_depth',
    'Spans waiting for an insert (the back-pressure gauge): in memory (insert mode) or accepted and not yet inserted (wal mode).',
    () => w().queueDepth,
  );
  gauge(
    'faultline_writer_pending_insert_spans',
    'Spans acknowledged but not yet inserted, so not yet queryable; 0 once the writer is idle.',
    () => w().pendingInsert,
  );
  liveGauge(registry, {
    name: 'faultline_writer_ack_mode',
    help: 'When a request is acknowledged: after the insert, or after the fsync to the write-ahead log.',
    labelNames: ['mode'],
    read: () => [[{ mode: w().ackAfter }, 1]],
  });
  gauge(
    'faultline_writer_queue_bytes',
    'Serialized bytes of the spans waiting for an insert.',
    () => w().queueBytes,
  );
  gauge(
    'faultline_spool_depth_spans',
    'Spans held on disk because ClickHouse inserts fail (wal mode: only during an outage).',
    () => w().spoolDepth,
  );
  gauge(
    'faultline_spool_bytes',
    'Bytes held on disk because ClickHouse inserts fail (wal mode: only during an outage).',
    () => w().spoolBytes,
  );
  counter('faultline_insert_errors_total', 'Failed insert attempts.', () => w().insertErrors);
  counter(
    'faultline_spans_quarantined_total',
    'Spans ClickHouse refused on their own, kept with the reason in <wal>/rejected while the rest of their batch landed.',
    () => w().quarantined,
  );
  counter(
    'faultline_insert_batches_split_total',
    'Batches ClickHouse refused whole for some of their rows, inserted in parts so the rest landed.',
    () => w().splitBatches,
  );
  gauge(
    'faultline_wal_unsealed_spans',
    'Acknowledged spans in a write-ahead segment that cannot be sealed (directory read-only or failing); retried until it heals.',
    () => w().walError?.spans ?? 0,
  );
  gauge(
    'faultline_insert_last_error_timestamp_seconds',
    'Unix time of the last failed insert attempt; 0 if none failed.',
    () => (w().lastInsertError?.at ?? 0) / 1000,
  );
  gauge(
    'faultline_writer_oldest_pending_age_seconds',
    'Age of the oldest acknowledged span not yet inserted; 0 when none waits. Growing means inserts are not landing.',
    () => {
      const at = w().oldestPendingAt;
      return at === null ? 0 : Math.max(0, Date.now() - at) / 1000;
    },
  );
  counter(
    'faultline_attribute_values_truncated_total',
    'Attribute values cut to the configured length limit.',
    () => receiver.valuesTruncated,
  );
  counter(
    'faultline_spans_sampling_marked_total',
    'Accepted spans whose tracestate carries a valid sampling threshold (ot=th): each counts as 1/p spans.',
    () => receiver.samplingMarked,
  );
  counter(
    'faultline_spans_sampling_mark_invalid_total',
    'Accepted spans whose ot=th sampling threshold is malformed: stored, counted with weight 1.',
    () => receiver.samplingMarkInvalid,
  );
  counter(
    'faultline_otlp_decoded_bytes_total',
    'Request body bytes decoded (after gunzip).',
    () => receiver.bytesDecoded,
  );
  snapshotHistogram(registry, {
    name: 'faultline_insert_duration_seconds',
    help: 'ClickHouse insert latency per batch.',
    read: () => w().insertLatency,
  });
  return registry;
}
