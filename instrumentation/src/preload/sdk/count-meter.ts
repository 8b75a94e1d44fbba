import { ValueType } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { COUNT_CALLS, COUNT_FAILURES, COUNT_METER_NAME } from '../../envelope/count-metrics.js';
import { CallCounter, MAX_SERIES } from '../pipeline/call-counter.js';
import type { CountSettings } from './count-config.js';
import { CountExportRoute, createCountExporter } from './count-exporter.js';

/** As the spans' exit flush (start.ts): below the exporter's first retry backoff (~1 s). */
const EXIT_EXPORT_TIMEOUT_MS = 500;

/** The running counts: the counter the span processor feeds, and their way out of the process. */
export interface CountExport {
  counter: CallCounter;
  /** Calls counted since the last exit flush: a beforeExit hook flushes only then. */
  hasUnflushed(): boolean;
  /** Exports what was counted since the last export; resolves whether or not that worked. */
  flushForExit(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The preload's own MeterProvider, never registered globally: the application's metrics (its own
 * SDK, or none) stay exactly as they are, and these counts never reach its exporters. Its reader
 * exports the counter's running totals (CountTable) as the contract's delta sums
 * (envelope/count-metrics.ts) every `intervalMillis`, observed through asynchronous counters so that
 * the SDK does its work per export, not per span; a series that did not move is not observed, so
 * it sends no zero point. Undefined when the counts are off. `counter` is one already counting
 * (faultline(): its export starts with the first span, whose resource names the service).
 */
export function startCountExport(
  settings: CountSettings,
  resource: Resource,
  counter = new CallCounter(),
): CountExport | undefined {
  if (!settings.enabled) return undefined;
  const route = new CountExportRoute(
    createCountExporter(settings),
    createCountExporter(settings, EXIT_EXPORT_TIMEOUT_MS),
  );
  const reader = new PeriodicExportingMetricReader({
    exporter: route,
    exportIntervalMillis: settings.intervalMillis,
    exportTimeoutMillis: settings.intervalMillis,
    // The counter's own limit and its overflow series, so the SDK never folds a series itself.
    cardinalityLimits: { default: MAX_SERIES + 2 },
  });
  const provider = new MeterProvider({ resource, readers: [reader] });
  const meter = provider.getMeter(COUNT_METER_NAME);
  const calls = meter.createObservableCounter(COUNT_CALLS, {
    description: 'Logical calls made or served, failures included, counted whatever the sampler kept',
    unit: '{call}',
    valueType: ValueType.INT,
  });
  const failures = meter.createObservableCounter(COUNT_FAILURES, {
    description: 'Failed calls by class and code, counted whatever the sampler kept',
    unit: '{call}',
    valueType: ValueType.INT,
  });
  meter.addBatchObservableCallback(
    (result) => {
      for (const series of counter.calls.moved()) result.observe(calls, series.value, series.attributes);
      for (const series of counter.failures.moved())
        result.observe(failures, series.value, series.attributes);
    },
    [calls, failures],
  );
  let flushedAt = 0;
  return {
    counter,
    hasUnflushed: () => counter.counted > flushedAt,
    async flushForExit() {
      flushedAt = counter.counted;
      // The export happens after the reader's collect, asynchronously: the route stays on the quick
      // exporter until the flush is over.
      route.exiting = true;
      try {
        await reader.forceFlush();
      } catch {
        // Reported through diag by the reader; leaving the process must not wait on it.
      } finally {
        route.exiting = false;
      }
    },
    shutdown: () => provider.shutdown(),
  };
}
