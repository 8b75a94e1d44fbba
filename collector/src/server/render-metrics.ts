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
    'Spans acknowledged durable (inserted or spooled).',
    writer.accepted,
  );
  metric('faultline_spans_rejected_total', 'counter', 'Spans not accepted, by reason.', [
    `faultline_spans_rejected_total{reason="invalid"} ${receiver.spansInvalid}`,
    `faultline_spans_rejected_total{reason="saturated"} ${receiver.spansRefusedSaturated}`,
  ]);
  one(
    'faultline_spans_spooled_total',
    'counter',
    'Spans written to the local spool while ClickHouse failed.',
    writer.spooled,
  );
  one('faultline_spans_replayed_total', 'counter', 'Spans inserted from the spool.', writer.replayed);
  one('faultline_spans_inserted_total', 'counter', 'Spans inserted into ClickHouse.', writer.inserted);
  one(
    'faultline_writer_queue_depth',
    'gauge',
    'Spans buffered in memory waiting for an insert.',
    writer.queueDepth,
  );
  one(
    'faultline_writer_queue_bytes',
    'gauge',
    'Serialized bytes of the spans buffered in memory or being inserted.',
    writer.queueBytes,
  );
  one(
    'faultline_spool_depth_spans',
    'gauge',
    'Spans on disk in the spool, not yet replayed.',
    writer.spoolDepth,
  );
  one('faultline_spool_bytes', 'gauge', 'Bytes on disk in the spool.', writer.spoolBytes);
  one('faultline_insert_errors_total', 'counter', 'Failed insert attempts.', writer.insertErrors);
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
