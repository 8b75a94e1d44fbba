import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { StoreOptions } from '@faultline/sql';
import type { WriterOptions } from '../types.js';
import { ConfigError, RECEIVER_DEFAULTS, type ReceiverOptions } from './receiver-config.js';

export const CLI_USAGE = `Usage: faultline-collector [options]

Receives OTLP/HTTP traces on POST /v1/traces and writes them to ClickHouse
(embedded chDB by default). Every option falls back to its environment variable.

Options:
  --port <n>                        listen port (FAULTLINE_OTLP_PORT, default ${RECEIVER_DEFAULTS.port}; 0 = any)
  --host <addr>                     listen address (FAULTLINE_OTLP_HOST, default ${RECEIVER_DEFAULTS.host})
  --token-file <path>               require "Authorization: Bearer <token>" with the token in this file
                                    (FAULTLINE_INGEST_TOKEN holds the token itself)
  --allow-insecure-bind             listen beyond loopback without a token (FAULTLINE_ALLOW_INSECURE_BIND=1)
  --data-dir <path>                 embedded chDB directory (FAULTLINE_DATA_DIR, default ./.faultline/data)
  --spool-dir <path>                write-ahead log directory (FAULTLINE_SPOOL_DIR, default <data-dir>/wal;
                                    with --clickhouse-url ./.faultline/spool); locked by this process
  --clickhouse-url <url>            use a ClickHouse server instead (FAULTLINE_CLICKHOUSE_URL; user, password
                                    and database from FAULTLINE_CLICKHOUSE_USER/_PASSWORD/_DATABASE)
  --max-body-bytes <n>              request body as sent (FAULTLINE_MAX_BODY_BYTES, default ${RECEIVER_DEFAULTS.maxBodyBytes})
  --max-decompressed-bytes <n>      body after gunzip (FAULTLINE_MAX_DECOMPRESSED_BYTES, default ${RECEIVER_DEFAULTS.maxDecompressedBytes})
  --max-spans-per-request <n>       (FAULTLINE_MAX_SPANS_PER_REQUEST, default ${RECEIVER_DEFAULTS.maxSpansPerRequest})
  --max-attribute-value-length <n>  longer values are truncated (FAULTLINE_MAX_ATTRIBUTE_VALUE_LENGTH, default ${RECEIVER_DEFAULTS.maxAttributeValueLength})
  --max-anyvalue-depth <n>          array/kvlist nesting (FAULTLINE_MAX_ANYVALUE_DEPTH, default ${RECEIVER_DEFAULTS.maxAnyValueDepth})
  -h, --help                        show this help
`;

export interface CliArgs {
  help: boolean;
  receiver: ReceiverOptions;
  store: StoreOptions;
  writer: WriterOptions;
}

const NUMERIC = {
  port: 'port',
  'max-body-bytes': 'maxBodyBytes',
  'max-decompressed-bytes': 'maxDecompressedBytes',
  'max-spans-per-request': 'maxSpansPerRequest',
  'max-attribute-value-length': 'maxAttributeValueLength',
  'max-anyvalue-depth': 'maxAnyValueDepth',
} as const;

/** argv → options; a typo or a malformed number is a ConfigError that names the flag. */
export function parseCliArgs(argv: string[]): CliArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}. Run faultline-collector --help for the options.`);
  }
  const v = parsed.values;
  const receiver: ReceiverOptions = {};
  for (const [flag, key] of Object.entries(NUMERIC)) {
    const raw = v[flag as keyof typeof v] as string | undefined;
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw)) throw new ConfigError(`--${flag} must be a whole number, got "${raw}"`);
    receiver[key] = Number(raw);
  }
  if (v.host !== undefined) receiver.host = v.host;
  if (v['allow-insecure-bind']) receiver.allowInsecureBind = true;
  if (v['token-file'] !== undefined) receiver.token = readToken(v['token-file']);
  const store: StoreOptions = {};
  if (v['data-dir'] !== undefined) store.dataDir = v['data-dir'];
  if (v['clickhouse-url'] !== undefined) store.url = v['clickhouse-url'];
  const writer: WriterOptions = {};
  if (v['spool-dir'] !== undefined) {
    if (v['spool-dir'].trim() === '') throw new ConfigError('--spool-dir must be a directory path, got ""');
    writer.spoolDir = v['spool-dir'];
  }
  return { help: v.help === true, receiver, store, writer };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'token-file': { type: 'string' },
      'allow-insecure-bind': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'spool-dir': { type: 'string' },
      'clickhouse-url': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'max-decompressed-bytes': { type: 'string' },
      'max-spans-per-request': { type: 'string' },
      'max-attribute-value-length': { type: 'string' },
      'max-anyvalue-depth': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function readToken(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`--token-file ${path} cannot be read: ${(err as Error).message}`);
  }
}
