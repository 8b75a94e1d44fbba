export { CLI_USAGE, type CliArgs, parseCliArgs } from './config/parse-cli-args.js';
export {
  ConfigError,
  isLoopback,
  RECEIVER_DEFAULTS,
  type ReceiverConfig,
  type ReceiverOptions,
  resolveReceiverConfig,
} from './config/receiver-config.js';
export type { DecodeLimits, DecodeResult } from './otlp/decode-context.js';
export { decodeTraces } from './otlp/decode-traces.js';
export { OtlpDecodeError } from './otlp/otlp-decode-error.js';
export type { OtlpEncoding } from './otlp/otlp-responses.js';
export { runCli } from './server/run-cli.js';
export { type Collector, type CollectorOptions, startCollector } from './server/start-collector.js';
export {
  applySchema,
  isConnectionError,
  listNamedQueries,
  listSchemaFiles,
  openStore,
  QueryParamError,
  resolveSqlDir,
} from './store/index.js';
export type * from './types.js';
export { createSpanWriter, insertBatch, SaturatedError, serializeRows } from './writer/index.js';
