import type { WriterStats } from '../types.js';
import type { ReceiverStats } from './receiver-stats.js';

/** Prometheus text exposition (format 0.0.4) of the receiver's and the writer's counters. */
export function renderMetrics(receiver: ReceiverStats, writer: WriterStats): string {
  const out: string[] = [];
  const metric = (name: string, type: string, help: string, lines: string[]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...lines);
  };
  const one = (name: string, type: string, help: string, value: number) =>
    metric(name, type, help, [`${name} ${value}`]);

  metric(
    'faultline_otlp_responses_total',
    'counter',
    'Responses to POST /v1/traces by HTTP status.',
    [...receiver.responses]
      .sort(([a], [b]) => a - b)
      .map(([code, n]) => `faultline_otlp_responses_total{code="${code}"} ${n}`),
  );
  one(
    'faultline_spans_accepted_total',
    'counter',
    "Spans acknowledged durable (inserted, or fsync'd to the write-ahead log or spool).",
    writer.accepted,
  );
  metric('faultline_spans_rejected_total', 'counter', 'Spans not accepted, by reason.', [
    `faultline_spans_rejected_total{reason="invalid"} ${receiver.spansInvalid}`,
    `faultline_spans_rejected_total{reason="saturated"} ${receiver.spansRefusedSaturated}`,
  ]);
  one(
    'faultline_spans_spooled_total',
    'counter',
    'Spans written to local disk before insert: every span in wal mode, spans whose insert failed in insert mode.',
    writer.spooled,
  );
  one(
    'faultline_spans_replayed_total',
    'counter',
    'Spans inserted from the write-ahead log or spool.',
    writer.replayed,
  );
  one('faultline_spans_inserted_total', 'counter', 'Spans inserted into ClickHouse.', writer.inserted);
  one(
    'faultline_writer_queue_depth',
    'gauge',
    'Spans waiting for an insert (the back-pressure gauge): in memory (insert mode) or accepted and not yet inserted (wal mode).',
    writer.queueDepth,
  );
  one(
    'faultline_writer_pending_insert_spans',
    'gauge',
    'Spans acknowledged but not yet inserted, so not yet queryable; 0 once the writer is idle.',
    writer.pendingInsert,
  );
  metric(
    'faultline_writer_ack_mode',
    'gauge',
    'When a request is acknowledged: after the insert, or after the fsync to the write-ahead log.',
    [`faultline_writer_ack_mode{mode="${writer.ackAfter}"} 1`],
  );
  one(
    'faultline_writer_queue_bytes',
    'gauge',
    'Serialized bytes of the spans waiting for an insert.',
    writer.queueBytes,
  );
  one(
    'faultline_spool_depth_spans',
    'gauge',
    'Spans held on disk because ClickHouse inserts fail (wal mode: only during an outage).',
    writer.spoolDepth,
  );
  one(
    'faultline_spool_bytes',
    'gauge',
    'Bytes held on disk because ClickHouse inserts fail (wal mode: only during an outage).',
    writer.spoolBytes,
  );
  one('faultline_insert_errors_total', 'counter', 'Failed insert attempts.', writer.insertErrors);
  one(
    'faultline_spans_quarantined_total',
    'counter',
    'Spans ClickHouse refused on their own, kept with the reason in <wal>/rejected while the rest of their batch landed.',
    writer.quarantined,
  );
  one(
    'faultline_insert_batches_split_total',
    'counter',
    'Batches ClickHouse refused whole for some of their rows, inserted in parts so the rest landed.',
    writer.splitBatches,
  );
  one(
    'faultline_wal_unsealed_spans',
    'gauge',
    'Acknowledged spans in a write-ahead segment that cannot be sealed (directory read-only or failing); retried until it heals.',
    writer.walError?.spans ?? 0,
  );
  one(
    'faultline_insert_last_error_timestamp_seconds',
    'gauge',
    'Unix time of the last failed insert attempt; 0 if none failed.',
    (writer.lastInsertError?.at ?? 0) / 1000,
  );
  one(
    'faultline_writer_oldest_pending_age_seconds',
    'gauge',
    'Age of the oldest acknowledged span not yet inserted; 0 when none waits. Growing means inserts are not landing.',
    writer.oldestPendingAt === null ? 0 : Math.max(0, Date.now() - writer.oldestPendingAt) / 1000,
  );
  one(
    'faultline_attribute_values_truncated_total',
    'counter',
    'Attribute values cut to the configured length limit.',
    receiver.valuesTruncated,
  );
  one(
    'faultline_otlp_decoded_bytes_total',
    'counter',
    'Request body bytes decoded (after gunzip).',
    receiver.bytesDecoded,
  );

  const h = writer.insertLatency;
  const name = 'faultline_insert_duration_seconds';
  metric(name, 'histogram', 'ClickHouse insert latency per batch.', [
    ...h.le.map((le, i) => `${name}_bucket{le="${le}"} ${h.counts[i] ?? 0}`),
    `${name}_bucket{le="+Inf"} ${h.count}`,
    `${name}_sum ${h.sumSeconds}`,
    `${name}_count ${h.count}`,
  ]);
  return `${out.join('\n')}\n`;
}
