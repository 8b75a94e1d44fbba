import type { Store } from '@faultline/sql';
import type { WriterOptions } from '../types.js';
import { createLogWriter, type LogWriter } from './log-writer.js';
import type { LogsHandlerDeps } from './logs-handler-deps.js';
import { type LogsHealth, logsHealth } from './logs-health.js';
import { logsIngestRegistry } from './logs-ingest-registry.js';
import { LogsIngestStats } from './logs-ingest-stats.js';
import type { SpanLogJoin } from './span-log-join.js';

/** The collector's logs side: what /v1/logs, LogsService, /metrics and /healthz use. */
export interface LogsReceiver {
  deps: LogsHandlerDeps;
  writer: LogWriter;
  /** Prometheus text of the logs receiver's counters. */
  metrics(): Promise<string>;
  health(): LogsHealth;
  /** Closes the log writer when it is ours (releasing its log), else drains it. */
  finish(): Promise<void>;
}

export interface LogsReceiverOptions {
  receiver: LogsHandlerDeps['receiver'];
  /** A ready log writer (tests, custom sinks); otherwise one is created on `store`. */
  logWriter?: LogWriter;
  store?: Store;
  /** The span writer's log directory: the log writer's lives inside it. */
  spanLogDir: string;
  writerOptions?: WriterOptions;
  join: SpanLogJoin;
}

/**
 * Sets up logs ingest beside the span receiver, or returns undefined when there is nowhere to store
 * them: a collector given a ready span writer and no store (then /v1/logs answers 404 and
 * LogsService is not served).
 */
export function createLogsReceiver(o: LogsReceiverOptions): LogsReceiver | undefined {
  const owned = o.logWriter === undefined;
  let writer = o.logWriter;
  if (!writer) {
    if (!o.store) return undefined;
    writer = createLogWriter(o.store, o.spanLogDir, o.writerOptions);
  }
  const w = writer;
  const stats = new LogsIngestStats();
  const registry = logsIngestRegistry(stats, () => w.stats());
  return {
    deps: { receiver: o.receiver, writer: w, stats, join: o.join },
    writer: w,
    metrics: () => registry.metrics(),
    health: () => logsHealth(stats, w.stats()),
    finish: () => (owned ? w.close() : w.drain()),
  };
}
