import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import { DEFAULT_ENDPOINT, type Env, isHttpUrl, type Warn } from './config.js';
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
const TRACES_PATH = /\/v1\/traces\/?$/;

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
 * Reads the counts' switches and where they go. The metrics exporter reads its own
 * OTEL_EXPORTER_OTLP_METRICS_* and OTEL_EXPORTER_OTLP_* variables; what is passed here is only what
 * it would get wrong: the traces endpoint's collector when only that one is configured (the counts
 * must reach the collector the spans reach), and the traces-only headers (its ingest token).
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
    url: metricsUrl(options, env, warn),
    headers: metricsHeaders(options, env),
    protocol: options.protocol ?? metricsProtocol(env, warn),
    intervalMillis: readInterval(env, warn),
  };
}

function readMetricsExporters(env: Env, warn: Warn): string[] {
  const raw = env.OTEL_METRICS_EXPORTER?.trim();
  if (!raw) return [];
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
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

/**
 * The metrics URL: an `endpoint` option's /v1/metrics; else the exporter's own reading of
 * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (undefined); else the traces
 * URL the preload exports to, /v1/traces replaced by /v1/metrics. An invalid variable falls to the
 * next (config.ts warns about OTEL_EXPORTER_OTLP_ENDPOINT already).
 */
function metricsUrl(options: StartOptions, env: Env, warn: Warn): string | undefined {
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, '')}/v1/metrics`;
  const signal = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  if (signal && isHttpUrl(signal)) return undefined;
  if (signal) {
    warn(
      'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
      signal,
      'use a full http(s):// URL such as http://host:4318/v1/metrics',
    );
  }
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base && isHttpUrl(base)) return signal ? `${base.replace(/\/+$/, '')}/v1/metrics` : undefined;
  const envTraces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const traces = options.tracesEndpoint ?? (envTraces && isHttpUrl(envTraces) ? envTraces : undefined);
  if (traces && TRACES_PATH.test(traces)) return traces.replace(TRACES_PATH, '/v1/metrics');
  // The exporter would read the invalid variable: the default instead, as for traces.
  return signal || base ? `${DEFAULT_ENDPOINT}/v1/metrics` : undefined;
}

/**
 * Options' headers, over the traces-only ones when no metrics ones are set: an ingest token given
 * in OTEL_EXPORTER_OTLP_TRACES_HEADERS must reach the same collector with the counts. The exporter
 * reads OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_METRICS_HEADERS itself (config.ts checks
 * their form); what is passed here wins a key over them, as the traces one does for spans.
 */
function metricsHeaders(options: StartOptions, env: Env): Record<string, string> | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_METRICS_HEADERS?.trim()
    ? {}
    : parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS);
  const headers = { ...traces, ...options.headers };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function metricsProtocol(env: Env, warn: Warn): ExportProtocol {
  const name = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[name]?.trim();
  if (!raw || raw === 'http/protobuf') return 'http/protobuf';
  if (raw === 'http/json') return 'http/json';
  // The traces protocol's own check already said so for the shared variable.
  if (name === 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') {
    warn(name, raw, 'use http/protobuf or http/json; grpc is not bundled (using http/protobuf)');
  }
  return 'http/protobuf';
}
