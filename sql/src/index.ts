// @faultline/sql: everything about ClickHouse in one package — the schema and named queries beside
// this folder, the connection (embedded chDB or a server), migrations, cluster DDL, the typed
// query runner and the SQL console's policy. The collector writes and the dashboard reads through it.

export * from './cluster/index.js';
export { isConnectionError } from './connection/connection-error.js';
export { embeddedRawInsert } from './connection/embedded-connections.js';
export { type InsertBatchOptions, insertBatch } from './connection/insert-batch.js';
export { NEWLINE, serializeRows, serializeRowsToBuffer } from './connection/serialize-rows.js';
export { ConsoleBusyError } from './console/console-gate.js';
export { ConsoleRefusal } from './console/console-refusal.js';
export { assertIdentifier } from './ddl/identifier.js';
export { listSchemaFiles } from './ddl/schema-files.js';
export { resolveSqlDir } from './ddl/sql-dir.js';
export { parseTtlDays, TTL_COLUMNS } from './ddl/ttl-days.js';
export * from './format/index.js';
export { splitStatements } from './lexer/split-statements.js';
export { type Token, type TokenType, tokenize } from './lexer/sql-tokens.js';
export { DirectoryInUseError, type LockPurpose } from './lock/directory-in-use-error.js';
export {
  acquireDirectoryLock,
  advertiseEndpoints,
  type DirectoryLock,
  LOCK_FILE,
  type LockState,
  readDirectoryLock,
} from './lock/directory-lock.js';
export { describeEndpoints, type InstanceEndpoints, type LockOwner } from './lock/lock-owner.js';
export { applySchema } from './migrate/apply-schema.js';
export * from './migrate/index.js';
export { openStore, STORE_PARTS } from './open-store.js';
export * from './store/index.js';
export type * from './types.js';
