import { type Env, exporterNames, type Warn } from './env-reading.js';
import { readSideSignalEndpoint } from './side-signal-endpoint.js';
import type { ExportProtocol, StartOptions } from './types.js';

const DEFAULT_INTERVAL_MS = 10_000;
/**
 * Each export is one delta data point per series, stored by the minute it ends in: an interval
 * above a minute would file several minutes' calls under one; below 100 ms it is all overhead.
 */
const MIN_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 60_000;
/** OTEL_METRICS_EXPORTER's values (the specification's); only `none` turns the counts off. */
const METRICS_EXPORTERS = new Set(['otlp', 'prometheus', 'console', 'none']);

/** How the preload's exact call counts (pipeline/call-counter.ts) leave the process. */
export interface CountSettings {
  /** Off with FAULTLINE_COUNTS=off or OTEL_METRICS_EXPORTER=none. */
  enabled: boolean;
  /** The metrics URL; undefined leaves it to the exporter's reading of OTEL_EXPORTER_OTLP_*. */
  url: string | undefined;
  headers: Record<string, string> | undefined;
  protocol: ExportProtocol;
  intervalMillis: number;
}

/**
 * Reads the counts' switches and where they go: where the spans go (side-signal-endpoint.ts).
 */
export function readCountSettings(
  options: StartOptions,
  env: Env,
  warn: Warn,
  flag: (name: string, fallback: boolean) => boolean,
): CountSettings {
  const counts = flag('FAULTLINE_COUNTS', true);
  const exporters = readMetricsExporters(env, warn);
  return {
    enabled: counts && !exporters.includes('none'),
    ...readSideSignalEndpoint('metrics', options, env, warn),
    intervalMillis: readInterval(env, warn),
  };
}

function readMetricsExporters(env: Env, warn: Warn): string[] {
  const names = exporterNames(env, 'OTEL_METRICS_EXPORTER');
  for (const name of names) {
    if (!METRICS_EXPORTERS.has(name)) {
      warn('OTEL_METRICS_EXPORTER', name, 'use otlp, or none to stop exporting call counts (ignored)');
    }
  }
  return names;
}

function readInterval(env: Env, warn: Warn): number {
  const raw = env.FAULTLINE_COUNT_EXPORT_INTERVAL_MS?.trim();
  if (!raw) return DEFAULT_INTERVAL_MS;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= MIN_INTERVAL_MS && n <= MAX_INTERVAL_MS) return n;
  warn(
    'FAULTLINE_COUNT_EXPORT_INTERVAL_MS',
    raw,
    `use milliseconds from ${MIN_INTERVAL_MS} to ${MAX_INTERVAL_MS} (using ${DEFAULT_INTERVAL_MS})`,
  );
  return DEFAULT_INTERVAL_MS;
}
