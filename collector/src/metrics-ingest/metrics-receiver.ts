import type { Store } from '@faultline/sql';
import type { WriterOptions } from '../types.js';
import { type CountWriter, createCountWriter } from './count-writer.js';
import type { MetricsHandlerDeps } from './metrics-handler-deps.js';
import { type MetricsHealth, metricsHealth } from './metrics-health.js';
import { metricsIngestRegistry } from './metrics-ingest-registry.js';
import { MetricsIngestStats } from './metrics-ingest-stats.js';

/** The collector's metrics side: what /v1/metrics, MetricsService, /metrics and /healthz use. */
export interface MetricsReceiver {
  deps: MetricsHandlerDeps;
  writer: CountWriter;
  /** Prometheus text of the metrics receiver's counters. */
  metrics(): Promise<string>;
  health(): MetricsHealth;
  /** Closes the count writer when it is ours (releasing its log), else drains it. */
  finish(): Promise<void>;
}

export interface MetricsReceiverOptions {
  receiver: MetricsHandlerDeps['receiver'];
  /** A ready count writer (tests, custom sinks); otherwise one is created on `store`. */
  countWriter?: CountWriter;
  store?: Store;
  /** The span writer's log directory: the count log lives inside it. */
  spanLogDir: string;
  writerOptions?: WriterOptions;
}

/**
 * Sets up metrics ingest beside the span receiver, or returns undefined when there is nowhere to
 * store it: a collector given a ready span writer and no store (then /v1/metrics answers 404 and
 * MetricsService is not served).
 */
export function createMetricsReceiver(o: MetricsReceiverOptions): MetricsReceiver | undefined {
  const owned = o.countWriter === undefined;
  let writer = o.countWriter;
  if (!writer) {
    if (!o.store) return undefined;
    writer = createCountWriter(o.store, o.spanLogDir, o.writerOptions);
  }
  const w = writer;
  const stats = new MetricsIngestStats();
  const registry = metricsIngestRegistry(stats, () => w.stats());
  return {
    deps: { receiver: o.receiver, writer: w, stats },
    writer: w,
    metrics: () => registry.metrics(),
    health: () => metricsHealth(stats, w.stats()),
    finish: () => (owned ? w.close() : w.drain()),
  };
}
