// @faultline/collector: OTLP in (HTTP and gRPC: traces, metrics, logs), the write-ahead writer,
// alerts, budget rules and the operator CLI. Everything about ClickHouse (store, migrations,
// console, cluster DDL) is @faultline/sql, which callers import directly.
export * from './alerts/index.js';
export * from './budget/index.js';
export { waitForInserted } from './client/wait-for-inserted.js';
export { CLI_USAGE, type CliArgs, parseCliArgs } from './config/parse-cli-args.js';
export {
  ConfigError,
  isLoopback,
  RECEIVER_DEFAULTS,
  type ReceiverConfig,
  type ReceiverOptions,
  resolveReceiverConfig,
} from './config/receiver-config.js';
export * from './doctor/index.js';
export { decodeLogs } from './logs-ingest/decode-logs.js';
export { type LogRow, OTEL_LOGS_TABLE } from './logs-ingest/log-row.js';
export { createLogWriter, type LogWriter } from './logs-ingest/log-writer.js';
export type { LogsDecodeResult } from './logs-ingest/logs-decode-context.js';
export { SpanLogJoin, type SpanLogJoinOptions } from './logs-ingest/span-log-join.js';
export { CALL_COUNTS_TABLE, type CallCountRow } from './metrics-ingest/call-count-row.js';
export { type CountWriter, createCountWriter } from './metrics-ingest/count-writer.js';
export { decodeMetrics } from './metrics-ingest/decode-metrics.js';
export type { MetricsDecodeResult } from './metrics-ingest/metrics-decode-context.js';
export type { DecodeLimits, DecodeResult } from './otlp/decode-context.js';
export { decodeTraces } from './otlp/decode-traces.js';
export { OtlpDecodeError } from './otlp/otlp-decode-error.js';
export type { OtlpEncoding } from './otlp/otlp-responses.js';
export { type IngestHealth, readIngestHealth } from './server/ingest-health.js';
export { runCli } from './server/run-cli.js';
export { type Collector, type CollectorOptions, startCollector } from './server/start-collector.js';
export type * from './types.js';
export * from './writer/index.js';
