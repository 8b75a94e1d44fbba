import { type CountSettings, readCountSettings } from './count-config.js';
import { DEFAULT_ENDPOINT, type Env, isHttpUrl, type Warn } from './env-reading.js';
import { knownInstrumentationNames } from './instrumentation-names.js';
import { type LogSettings, readLogSettings } from './log-config.js';
import { readKeepFailures, readSampling } from './sampler.js';
import type {
  ExportProtocol,
  ExportSettings,
  FaultlineConfig,
  InstrumentationSelection,
  PreloadConfig,
  RatioSampling,
  StartOptions,
} from './types.js';

const DEFAULT_PEEK_MAX_BYTES = 16_384;
/**
 * The preload's batch delay when OTEL_BSP_SCHEDULE_DELAY is unset: spans of an incident in
 * progress reach the dashboard within a second, where the specification's default is 5 s.
 */
const PRELOAD_SCHEDULE_DELAY_MS = 1000;

/**
 * Resolves the preload's options over environment variables. Only Faultline's own switches, the
 * instrumentation list and a ratio sampler (sampler.ts) are read into values: the OTLP exporter
 * reads its OTEL_EXPORTER_OTLP_* variables (endpoints, headers, timeout, certificates) and the SDK
 * its other samplers and OTEL_BSP_* variables themselves. Those are only checked here, because the
 * SDK reports a bad value through `diag`, which nobody sees by default. A bad value never throws: the host must keep running, so
 * each problem becomes one warning naming the variable and the fix, then the default.
 */
export function readConfig(
  options: StartOptions = {},
  env: Env = process.env,
): {
  config: PreloadConfig;
  exporter: ExportSettings;
  counts: CountSettings;
  logs: LogSettings;
  warnings: string[];
} {
  const { config: faultline, warnings, warn, flag } = readSwitches(options, env);

  const sampling = readSampling(env, warn);
  const keepFailures = readKeepFailures(sampling, options.keepFailures, flag);
  const queue = env.OTEL_BSP_MAX_QUEUE_SIZE?.trim();
  if (queue && !(Number.isInteger(Number(queue)) && Number(queue) > 0)) {
    warn('OTEL_BSP_MAX_QUEUE_SIZE', queue, 'use a positive whole number (using 2048)');
  }
  checkHeaders(env, warn);

  return {
    config: {
      ...faultline,
      disabled: flag('OTEL_SDK_DISABLED', false),
      serviceName: options.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || undefined),
      instrumentations: readInstrumentationSelection(options, env, warn),
      sampling,
      keepFailures,
    },
    exporter: {
      url: tracesUrl(options, env, warn),
      headers: options.headers,
      protocol: options.protocol ?? protocol(env, warn),
      maxQueueSize: options.maxQueueSize,
      scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY?.trim() ? undefined : PRELOAD_SCHEDULE_DELAY_MS,
    },
    counts: readCountSettings(options, env, warn, flag),
    logs: readLogSettings(options, env, warn),
    warnings,
  };
}

/**
 * Faultline's own switches (FAULTLINE_*), options winning over the environment: all that
 * `faultline()` from `@faultline/instrumentation/sdk` reads, the application's SDK owning the rest.
 */
export function readFaultlineConfig(
  options: Partial<FaultlineConfig> & { keepFailures?: boolean } = {},
  env: Env = process.env,
): {
  config: FaultlineConfig;
  selection: InstrumentationSelection;
  sampling: RatioSampling | undefined;
  keepFailures: boolean;
  counts: CountSettings;
  warnings: string[];
} {
  const { config, warnings, warn, flag } = readSwitches(options, env);
  // The ratio sampler OTEL_TRACES_SAMPLER names, which faultline().sampler builds as the preload
  // does (writing th, keeping every failure), and the counts, read as the preload reads them.
  const sampling = readSampling(env, warn);
  return {
    config,
    // Faultline's own instrumentations follow the same OTEL_NODE_*_INSTRUMENTATIONS names the
    // application's getNodeAutoInstrumentations() reads.
    selection: readInstrumentationSelection({}, env, warn),
    sampling,
    keepFailures: readKeepFailures(sampling, options.keepFailures, flag),
    counts: readCountSettings({}, env, warn, flag),
    warnings,
  };
}

function readSwitches(options: Partial<FaultlineConfig>, env: Env) {
  const warnings: string[] = [];
  const warn: Warn = (name, value, fix) => {
    warnings.push(`${name}=${JSON.stringify(value)} is not valid: ${fix}`);
  };

  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (!raw) return fallback;
    if (['on', 'true', '1', 'yes'].includes(raw)) return true;
    if (['off', 'false', '0', 'no'].includes(raw)) return false;
    warn(name, raw, `use on or off (using ${fallback ? 'on' : 'off'})`);
    return fallback;
  };

  const positiveInt = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (Number.isInteger(n) && n > 0) return n;
    warn(name, raw, `use a positive whole number (using ${fallback})`);
    return fallback;
  };

  const config: FaultlineConfig = {
    bodyPeek: options.bodyPeek ?? flag('FAULTLINE_BODY_PEEK', true),
    bodyPeekMaxBytes:
      options.bodyPeekMaxBytes ?? positiveInt('FAULTLINE_BODY_PEEK_MAX_BYTES', DEFAULT_PEEK_MAX_BYTES),
    enforceMisrouted: options.enforceMisrouted ?? flag('FAULTLINE_ENFORCE_MISROUTED', false),
    exportDerived: options.exportDerived ?? flag('FAULTLINE_EXPORT_DERIVED', false),
    debug: options.debug ?? flag('FAULTLINE_DEBUG', false),
  };
  return { config, warnings, warn, flag };
}

/**
 * The traces URL to hand the exporter, or undefined to let it read OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * and OTEL_EXPORTER_OTLP_ENDPOINT itself. Given only by options, or when a variable the exporter
 * would use is not an http(s) URL: the exporter would accept `collector:4318` as a URL with the
 * scheme `collector:` and fail every export, so the warning's fallback is passed instead.
 */
function tracesUrl(options: StartOptions, env: Env, warn: Warn): string | undefined {
  if (options.tracesEndpoint) return options.tracesEndpoint;
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (signal && isHttpUrl(signal)) return undefined;
  if (signal) {
    warn(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      signal,
      'use a full http(s):// URL such as http://host:4318/v1/traces',
    );
  }
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base && isHttpUrl(base)) return signal ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
  if (base) {
    warn('OTEL_EXPORTER_OTLP_ENDPOINT', base, `use an http(s):// base URL such as ${DEFAULT_ENDPOINT}`);
  }
  return signal || base ? `${DEFAULT_ENDPOINT}/v1/traces` : undefined;
}

function protocol(env: Env, warn: Warn): ExportProtocol {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[name]?.trim();
  if (!raw || raw === 'http/protobuf') return 'http/protobuf';
  if (raw === 'http/json') return 'http/json';
  warn(name, raw, 'use http/protobuf or http/json; grpc is not bundled (using http/protobuf)');
  return 'http/protobuf';
}

/**
 * The exporter parses OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS itself
 * (`key=value` pairs, percent-encoded values) and skips a malformed entry silently: say so once.
 */
function checkHeaders(env: Env, warn: Warn): void {
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    const raw = env[name];
    if (!raw?.trim()) continue;
    for (const part of raw.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() && part.slice(eq + 1).trim()) continue;
      // The value may hold a secret: name the variable, not its content.
      warn(name, '<redacted>', 'use key=value pairs separated by commas; skipped one entry');
    }
  }
}

/**
 * The instrumentations asked for, by the names @opentelemetry/auto-instrumentations-node takes
 * (and Faultline's own): options win over OTEL_NODE_ENABLED_INSTRUMENTATIONS /
 * OTEL_NODE_DISABLED_INSTRUMENTATIONS, list by list. A name neither knows is dropped with a warning.
 */
function readInstrumentationSelection(
  options: Pick<StartOptions, 'enabledInstrumentations' | 'disabledInstrumentations'>,
  env: Env,
  warn: Warn,
): InstrumentationSelection {
  const known = knownInstrumentationNames();
  const list = (name: string, given: string[] | undefined): string[] | undefined => {
    const items = given ?? env[name]?.split(',');
    if (!items) return undefined;
    const names = items.map((s) => s.trim()).filter(Boolean);
    for (const n of names) {
      if (!known.has(n)) warn(name, n, `use names from ${[...known].join(', ')} (ignored)`);
    }
    return names.filter((n) => known.has(n));
  };
  return {
    enabled: list('OTEL_NODE_ENABLED_INSTRUMENTATIONS', options.enabledInstrumentations),
    disabled: list('OTEL_NODE_DISABLED_INSTRUMENTATIONS', options.disabledInstrumentations) ?? [],
  };
}
