import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import { DEFAULT_ENDPOINT, type Env, isHttpUrl, type Warn } from './env-reading.js';
import type { ExportProtocol, StartOptions } from './types.js';

/** A signal the preload exports beside its spans: the call counts, and the logged errors. */
export type SideSignal = 'metrics' | 'logs';

const TRACES_PATH = /\/v1\/traces\/?$/;

/** Where a side signal goes, as its OTLP exporter is handed it (undefined: its own reading). */
export interface SideSignalEndpoint {
  url: string | undefined;
  headers: Record<string, string> | undefined;
  protocol: ExportProtocol;
}

/**
 * Where a side signal's OTLP exporter sends, read as the spans' is. The exporter reads its own
 * OTEL_EXPORTER_OTLP_<SIGNAL>_* and OTEL_EXPORTER_OTLP_* variables; what is passed here is only what
 * it would get wrong: the traces endpoint's collector when only that one is configured (the signal
 * must reach the collector the spans reach), and the traces-only headers (its ingest token).
 */
export function readSideSignalEndpoint(
  signal: SideSignal,
  options: StartOptions,
  env: Env,
  warn: Warn,
): SideSignalEndpoint {
  return {
    url: signalUrl(signal, options, env, warn),
    headers: signalHeaders(signal, options, env),
    protocol: options.protocol ?? signalProtocol(signal, env, warn),
  };
}

const upper = (signal: SideSignal): string => signal.toUpperCase();

/**
 * The signal's URL: an `endpoint` option's /v1/<signal>; else the exporter's own reading of
 * OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT (undefined); else the traces
 * URL the preload exports to, /v1/traces replaced by /v1/<signal>. An invalid variable falls to the
 * next (config.ts warns about OTEL_EXPORTER_OTLP_ENDPOINT already).
 */
function signalUrl(signal: SideSignal, options: StartOptions, env: Env, warn: Warn): string | undefined {
  const path = `/v1/${signal}`;
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, '')}${path}`;
  const name = `OTEL_EXPORTER_OTLP_${upper(signal)}_ENDPOINT`;
  const own = env[name]?.trim();
  if (own && isHttpUrl(own)) return undefined;
  if (own) warn(name, own, `use a full http(s):// URL such as http://host:4318${path}`);
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base && isHttpUrl(base)) return own ? `${base.replace(/\/+$/, '')}${path}` : undefined;
  const envTraces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const traces = options.tracesEndpoint ?? (envTraces && isHttpUrl(envTraces) ? envTraces : undefined);
  if (traces && TRACES_PATH.test(traces)) return traces.replace(TRACES_PATH, path);
  // The exporter would read the invalid variable: the default instead, as for traces.
  return own || base ? `${DEFAULT_ENDPOINT}${path}` : undefined;
}

/**
 * Options' headers, over the traces-only ones when none of the signal's own are set: an ingest
 * token given in OTEL_EXPORTER_OTLP_TRACES_HEADERS must reach the same collector. The exporter
 * reads OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_<SIGNAL>_HEADERS itself (config.ts
 * checks their form); what is passed here wins a key over them, as the traces one does for spans.
 */
function signalHeaders(
  signal: SideSignal,
  options: StartOptions,
  env: Env,
): Record<string, string> | undefined {
  const traces = env[`OTEL_EXPORTER_OTLP_${upper(signal)}_HEADERS`]?.trim()
    ? {}
    : parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS);
  const headers = { ...traces, ...options.headers };
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function signalProtocol(signal: SideSignal, env: Env, warn: Warn): ExportProtocol {
  const own = `OTEL_EXPORTER_OTLP_${upper(signal)}_PROTOCOL`;
  const name = env[own] ? own : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[name]?.trim();
  if (!raw || raw === 'http/protobuf') return 'http/protobuf';
  if (raw === 'http/json') return 'http/json';
  // The traces protocol's own check already said so for the shared variable.
  if (name === own) {
    warn(name, raw, 'use http/protobuf or http/json; grpc is not bundled (using http/protobuf)');
  }
  return 'http/protobuf';
}
