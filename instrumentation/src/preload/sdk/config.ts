import type { ExportProtocol, PreloadConfig, StartOptions } from './types.js';

/** Short names accepted in OTEL_NODE_ENABLED_INSTRUMENTATIONS / _DISABLED_ and StartOptions. */
export const INSTRUMENTATION_NAMES = [
  'http',
  'undici',
  'pg',
  'mysql2',
  'tedious',
  'ioredis',
  'aws-sdk',
  'grpc',
] as const;

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const DEFAULT_PEEK_MAX_BYTES = 16_384;
const DEFAULT_QUEUE = 2048;
const SAMPLERS = new Set([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]);

type Env = Record<string, string | undefined>;

/**
 * Resolves options over environment variables. A bad value never throws: the host must keep
 * running, so each problem becomes one warning naming the variable and the fix, then the default.
 */
export function readConfig(
  options: StartOptions = {},
  env: Env = process.env,
): {
  config: PreloadConfig;
  warnings: string[];
} {
  const warnings: string[] = [];
  const warn = (name: string, value: string, fix: string): void => {
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

  const sdkDisabled = flag('OTEL_SDK_DISABLED', false);

  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  if (sampler && !SAMPLERS.has(sampler)) {
    warn(
      'OTEL_TRACES_SAMPLER',
      sampler,
      `use one of ${[...SAMPLERS].join(', ')} (using parentbased_always_on)`,
    );
  }

  return {
    config: {
      disabled: sdkDisabled,
      serviceName: options.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || undefined),
      tracesUrl: tracesUrl(options, env, warn),
      headers: { ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, warn), ...options.headers },
      protocol: options.protocol ?? protocol(env, warn),
      bodyPeek: options.bodyPeek ?? flag('FAULTLINE_BODY_PEEK', true),
      bodyPeekMaxBytes:
        options.bodyPeekMaxBytes ?? positiveInt('FAULTLINE_BODY_PEEK_MAX_BYTES', DEFAULT_PEEK_MAX_BYTES),
      enforceMisrouted: options.enforceMisrouted ?? flag('FAULTLINE_ENFORCE_MISROUTED', false),
      exportDerived: options.exportDerived ?? flag('FAULTLINE_EXPORT_DERIVED', false),
      instrumentations: instrumentations(options, env, warn),
      maxQueueSize: options.maxQueueSize ?? positiveInt('OTEL_BSP_MAX_QUEUE_SIZE', DEFAULT_QUEUE),
      debug: options.debug ?? flag('FAULTLINE_DEBUG', false),
    },
    warnings,
  };
}

type Warn = (name: string, value: string, fix: string) => void;

function tracesUrl(options: StartOptions, env: Env, warn: Warn): string {
  const explicit = options.tracesEndpoint ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (explicit) {
    if (isHttpUrl(explicit)) return explicit;
    warn(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      explicit,
      'use a full http(s):// URL such as http://host:4318/v1/traces',
    );
  }
  const base = options.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) {
    if (isHttpUrl(base)) return `${base.replace(/\/+$/, '')}/v1/traces`;
    warn('OTEL_EXPORTER_OTLP_ENDPOINT', base, `use an http(s):// base URL such as ${DEFAULT_ENDPOINT}`);
  }
  return `${DEFAULT_ENDPOINT}/v1/traces`;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
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

/** W3C-style `key=value,key2=value2` with percent-encoded values, as the OTLP spec defines. */
function parseHeaders(raw: string | undefined, warn: Warn): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!raw?.trim()) return headers;
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (eq <= 0 || !key) {
      // The value may hold a secret: name the variable, not its content.
      warn(
        'OTEL_EXPORTER_OTLP_HEADERS',
        '<redacted>',
        'use key=value pairs separated by commas; skipped one entry',
      );
      continue;
    }
    try {
      headers[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      headers[key] = part.slice(eq + 1).trim();
    }
  }
  return headers;
}

function instrumentations(options: StartOptions, env: Env, warn: Warn): ReadonlySet<string> {
  const known = new Set<string>(INSTRUMENTATION_NAMES);
  const list = (name: string, given: string[] | undefined): string[] | undefined => {
    const items = given ?? env[name]?.split(',');
    if (!items) return undefined;
    const names = items.map((s) => s.trim()).filter(Boolean);
    for (const n of names) {
      if (!known.has(n)) warn(name, n, `use names from ${INSTRUMENTATION_NAMES.join(', ')} (ignored)`);
    }
    return names.filter((n) => known.has(n));
  };
  const enabled = list('OTEL_NODE_ENABLED_INSTRUMENTATIONS', options.enabledInstrumentations);
  const disabled = new Set(list('OTEL_NODE_DISABLED_INSTRUMENTATIONS', options.disabledInstrumentations));
  return new Set((enabled ?? INSTRUMENTATION_NAMES).filter((n) => !disabled.has(n)));
}
