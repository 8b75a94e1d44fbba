export * from './alerts/index.js';
export * from './budget/index.js';
export { waitForInserted } from './client/wait-for-inserted.js';
export * from './cluster/index.js';
export { CLI_USAGE, type CliArgs, parseCliArgs } from './config/parse-cli-args.js';
export {
  ConfigError,
  isLoopback,
  RECEIVER_DEFAULTS,
  type ReceiverConfig,
  type ReceiverOptions,
  resolveReceiverConfig,
} from './config/receiver-config.js';
export { ConsoleBusyError } from './console/console-gate.js';
export { ConsoleRefusal } from './console/console-refusal.js';
export * from './doctor/index.js';
export * from './format/index.js';
export { DirectoryInUseError, type LockPurpose } from './lock/directory-in-use-error.js';
export type { LockOwner } from './lock/lock-owner.js';
export * from './migrate/index.js';
export type { DecodeLimits, DecodeResult } from './otlp/decode-context.js';
export { decodeTraces } from './otlp/decode-traces.js';
export { OtlpDecodeError } from './otlp/otlp-decode-error.js';
export type { OtlpEncoding } from './otlp/otlp-responses.js';
export { type IngestHealth, readIngestHealth } from './server/ingest-health.js';
export { runCli } from './server/run-cli.js';
export { type Collector, type CollectorOptions, startCollector } from './server/start-collector.js';
// The store and writer (H4a) are re-exported whole, so their additions reach the package entry.
export * from './store/index.js';
export type * from './types.js';
export * from './writer/index.js';
