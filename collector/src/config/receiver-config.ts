import { isIP } from 'node:net';

/** Everything the receiver needs to listen and to bound a request; see README "Receiver". */
export interface ReceiverConfig {
  port: number;
  /** OTLP/gRPC port, on the same `host`; 0 picks a free one. */
  grpcPort: number;
  host: string;
  /** When set, `Authorization: Bearer <token>` is required on /v1/traces. */
  token: string | undefined;
  /** Request body bytes as sent (compressed) at most → else 413. */
  maxBodyBytes: number;
  /** Body bytes after gunzip at most → else 413 (stops gzip bombs mid-stream). */
  maxDecompressedBytes: number;
  maxSpansPerRequest: number;
  maxAttributeValueLength: number;
  maxAnyValueDepth: number;
  /**
   * Bytes all requests together may hold while being read and decoded (body, inflated body and the
   * decoded objects' estimate) → else they wait, then 429. One request larger than this runs alone.
   */
  maxDecodeBytes: number;
}

/** Options accepted by `startCollector` and the CLI; each falls back to its environment variable. */
export interface ReceiverOptions {
  port?: number;
  /** OTLP/gRPC port (env FAULTLINE_OTLP_GRPC_PORT); defaults to 4317, or to 0 when `port` is 0. */
  grpcPort?: number;
  host?: string;
  token?: string;
  /** Allow a non-loopback `host` without a token (env FAULTLINE_ALLOW_INSECURE_BIND=1). */
  allowInsecureBind?: boolean;
  maxBodyBytes?: number;
  maxDecompressedBytes?: number;
  maxSpansPerRequest?: number;
  maxAttributeValueLength?: number;
  maxAnyValueDepth?: number;
  maxDecodeBytes?: number;
}

/** A setting that cannot work, with the variable or option to fix. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const RECEIVER_DEFAULTS = {
  port: 4318,
  grpcPort: 4317,
  host: '127.0.0.1',
  maxBodyBytes: 16 * 1024 * 1024,
  maxDecompressedBytes: 64 * 1024 * 1024,
  maxSpansPerRequest: 10_000,
  maxAttributeValueLength: 64 * 1024,
  maxAnyValueDepth: 32,
  // Keeps decoding within ~0.3 GiB (a lone maximal request reserves 16 + 64 + 64 × 3.5 MiB = 304 MiB);
  // see README "Decode memory" for the RSS bound this gives.
  maxDecodeBytes: 256 * 1024 * 1024,
} as const;

const INT_SETTINGS = [
  ['port', 'FAULTLINE_OTLP_PORT', 0, 65_535],
  ['grpcPort', 'FAULTLINE_OTLP_GRPC_PORT', 0, 65_535],
  ['maxBodyBytes', 'FAULTLINE_MAX_BODY_BYTES', 1, 2 ** 31],
  ['maxDecompressedBytes', 'FAULTLINE_MAX_DECOMPRESSED_BYTES', 1, 2 ** 31],
  ['maxSpansPerRequest', 'FAULTLINE_MAX_SPANS_PER_REQUEST', 1, 10_000_000],
  ['maxAttributeValueLength', 'FAULTLINE_MAX_ATTRIBUTE_VALUE_LENGTH', 1, 2 ** 29],
  ['maxAnyValueDepth', 'FAULTLINE_MAX_ANYVALUE_DEPTH', 1, 1_000],
  // At least 1 MiB: below that even small exports would mostly run one at a time.
  ['maxDecodeBytes', 'FAULTLINE_MAX_DECODE_BYTES', 1024 * 1024, 2 ** 40],
] as const;

/** Resolves options over environment over defaults, and refuses unsafe or malformed settings. */
export function resolveReceiverConfig(
  options: ReceiverOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ReceiverConfig {
  const ints = {} as Record<(typeof INT_SETTINGS)[number][0], number>;
  for (const [key, variable, min, max] of INT_SETTINGS) {
    ints[key] = intSetting(options[key], env[variable], defaultOf(key, ints), key, variable, min, max);
  }
  const host = options.host ?? (env.FAULTLINE_OTLP_HOST || RECEIVER_DEFAULTS.host);
  const tokenSource = options.token ?? env.FAULTLINE_INGEST_TOKEN;
  const token = tokenSource === undefined || tokenSource === '' ? undefined : tokenSource;
  if (token !== undefined && (token.length < 16 || /\s/.test(token))) {
    throw new ConfigError(
      'FAULTLINE_INGEST_TOKEN must be at least 16 characters with no whitespace ' +
        '(generate one with `openssl rand -hex 32`)',
    );
  }
  const allowInsecure = options.allowInsecureBind ?? env.FAULTLINE_ALLOW_INSECURE_BIND === '1';
  if (!isLoopback(host) && token === undefined && !allowInsecure) {
    throw new ConfigError(
      `refusing to listen on ${host} without a token: anyone who can reach it could write spans. ` +
        'Set FAULTLINE_INGEST_TOKEN (clients send Authorization: Bearer <token>), ' +
        'or set FAULTLINE_ALLOW_INSECURE_BIND=1 to accept unauthenticated spans on purpose.',
    );
  }
  if (ints.maxDecompressedBytes < ints.maxBodyBytes) {
    throw new ConfigError('FAULTLINE_MAX_DECOMPRESSED_BYTES must be at least FAULTLINE_MAX_BODY_BYTES');
  }
  return { ...ints, host, token };
}

/**
 * An ephemeral HTTP port (tests, `npm start -- --otlp-port 0`) makes the gRPC default ephemeral too:
 * otherwise every such collector would race for 4317 and all but one fail to start.
 */
function defaultOf(key: (typeof INT_SETTINGS)[number][0], resolved: Partial<Record<string, number>>): number {
  if (key === 'grpcPort' && resolved.port === 0) return 0;
  return RECEIVER_DEFAULTS[key];
}

function intSetting(
  option: number | undefined,
  raw: string | undefined,
  fallback: number,
  name: string,
  variable: string,
  min: number,
  max: number,
): number {
  const from = option !== undefined ? `option ${name}` : variable;
  let value: number = fallback;
  if (option !== undefined) value = option;
  else if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${variable} must be a whole number, got "${raw}"`);
    value = Number(raw.trim());
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${from} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  const h = host.replace(/^\[|\]$/g, '');
  return h === '::1' || h.startsWith('::ffff:127.');
}
