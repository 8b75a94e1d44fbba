import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { LatencyHistogram } from '../types.js';

// The one home of /metrics: prom-client registries whose every value is read from live state at
// scrape time (collect callbacks), so the library does the exposition format and its escaping. A
// registry belongs to one collector or alerts role; several may run in one process (tests), so
// nothing here touches prom-client's global default registry.

/** Content type of the text every registry renders (Prometheus exposition format 0.0.4). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

export type MetricLabels = Record<string, string | number>;
/** One series: its labels and its value. */
export type MetricSeries = readonly [labels: MetricLabels, value: number];

export interface LiveMetric {
  name: string;
  help: string;
  /** The label names of a metric with series; absent when `read` gives one unlabelled value. */
  labelNames?: readonly string[];
  /** Called at every scrape: the value, or the series in the order they are served. */
  read: () => number | Iterable<MetricSeries>;
}

/** A counter whose total someone else keeps (a stats object), read at each scrape. */
export function liveCounter(registry: Registry, m: LiveMetric): void {
  new Counter({
    ...configOf(registry, m),
    collect() {
      this.reset();
      eachSeries(m.read(), (labels, n) => this.inc(labels, n));
    },
  });
}

/** A gauge read from live state at each scrape. */
export function liveGauge(registry: Registry, m: LiveMetric): void {
  new Gauge({
    ...configOf(registry, m),
    collect() {
      this.reset();
      eachSeries(m.read(), (labels, n) => this.set(labels, n));
    },
  });
}

const configOf = (registry: Registry, m: LiveMetric) => ({
  name: m.name,
  help: m.help,
  labelNames: m.labelNames ?? [],
  registers: [registry],
});

function eachSeries(
  v: number | Iterable<MetricSeries>,
  put: (labels: MetricLabels, n: number) => void,
): void {
  if (typeof v === 'number') put({}, v);
  else for (const [labels, n] of v) put(labels, n);
}

/**
 * A histogram whose buckets the writer counts (WriterStats.insertLatency, a cumulative snapshot),
 * served as one. prom-client's Histogram only fills from observe() and cannot be loaded from a
 * snapshot, so this is a metric object of the shape the registry reads (`get()`, as prom-client's
 * own cluster aggregation registers); the registry still renders and escapes it.
 */
export function snapshotHistogram(
  registry: Registry,
  m: { name: string; help: string; read: () => LatencyHistogram },
): void {
  const bucket = `${m.name}_bucket`;
  const metric = {
    name: m.name,
    help: m.help,
    type: 'histogram',
    aggregator: 'sum',
    reset() {},
    async get() {
      const h = m.read();
      const values = [
        ...h.le.map((le, i) => ({ labels: { le }, value: h.counts[i] ?? 0, metricName: bucket })),
        { labels: { le: '+Inf' }, value: h.count, metricName: bucket },
        { labels: {}, value: h.sumSeconds, metricName: `${m.name}_sum` },
        { labels: {}, value: h.count, metricName: `${m.name}_count` },
      ];
      return { name: m.name, help: m.help, type: 'histogram', aggregator: 'sum', values };
    },
  };
  registry.registerMetric(metric as unknown as Metric);
}

/**
 * `read`, called at most once per scrape: every collect callback of one scrape runs in the same
 * synchronous turn (the registry starts them all before awaiting any), so they share one snapshot.
 */
export function perScrape<T>(read: () => T): () => T {
  let held: { value: T } | undefined;
  return () => {
    if (held === undefined) {
      held = { value: read() };
      queueMicrotask(() => {
        held = undefined;
      });
    }
    return held.value;
  };
}

let processMetrics: Registry | undefined;

/**
 * `registry` plus the Node process metrics (CPU, memory, heap, event loop lag, GC, handles,
 * version) from prom-client's collectDefaultMetrics. Those describe the process, not one
 * collector, and collectDefaultMetrics starts an event-loop-delay monitor and a GC observer it
 * never stops: so it runs once per process, on a registry of its own (never the global default),
 * and each collector's or alerts role's registry takes those metric objects in, computed at each
 * of its scrapes. Call once, after every metric of `registry` is registered.
 */
export function withProcessMetrics(registry: Registry): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return Registry.merge([registry, processMetrics]);
}
