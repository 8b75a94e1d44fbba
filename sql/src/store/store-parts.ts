import type { ClickHouseClient } from '@clickhouse/client';
import type { SqlConsole } from '../console/sql-console.js';
import type { ResolvedStoreOptions } from './store-options.js';

/** A held data directory, released with the last handle of its store. */
export interface HeldDirectory {
  release(): void;
}

/**
 * What a store is made of besides its connection: the data directory's lock, the SQL console and
 * the schema check. The store receives them (`openStoreWith`) instead of importing them, so it
 * sits on top of nothing but the connection; `open-store.ts` at the package root wires the real ones.
 */
export interface StoreParts {
  /** Locks an embedded data directory for this process, or throws naming who holds it. */
  holdDirectory(dataDir: string): HeldDirectory;
  /** The console over the embedded engine: a session of its own per statement. */
  embeddedConsole(dataDir: string, database: string): SqlConsole;
  /** The console over a server: `client` is the store's; `clientAs` opens one as another user. */
  serverConsole(
    client: ClickHouseClient,
    o: ResolvedStoreOptions,
    clientAs: (user: { username?: string; password?: string }) => ClickHouseClient,
  ): SqlConsole;
  /** Checks the schema's version and migrates or refuses as `o` says; the version it left. */
  ensureSchema(
    client: ClickHouseClient,
    o: ResolvedStoreOptions,
  ): Promise<{ version: number; known: number }>;
}
