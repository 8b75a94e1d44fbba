import { CLUSTER_READ_SETTINGS } from './cluster/cluster-settings.js';
import { consoleCredentials } from './console/console-credentials.js';
import { createEmbeddedConsole } from './console/embedded-console-backend.js';
import { createServerConsole } from './console/server-console-backend.js';
import { createSqlConsole } from './console/sql-console.js';
import { resolveSqlDir } from './ddl/sql-dir.js';
import { acquireDirectoryLock } from './lock/directory-lock.js';
import { applyMigration, assertNotNewer, planMigration, SchemaBehindError } from './migrate/migrate.js';
import { openStoreWith } from './store/open-store.js';
import type { StoreParts } from './store/store-parts.js';
import type { Store, StoreOptions } from './types.js';

const DATA_DIR_LOCK = {
  what: 'the data directory',
  fix: 'point FAULTLINE_DATA_DIR (--data-dir) at another directory (to query this data while that process runs, use its SQL console, /sql)',
};

/** The real parts: the directory lock, the console of each mode, and the migrator. */
export const STORE_PARTS: StoreParts = {
  // chDB refuses a second process with a bare "Failed to create connection"; the lock says who
  // holds the directory and what to do, and keeps a second collector off its write-ahead log.
  holdDirectory: (dataDir) => acquireDirectoryLock(dataDir, DATA_DIR_LOCK),
  embeddedConsole: (dataDir, database) => createSqlConsole(createEmbeddedConsole(dataDir, database)),
  serverConsole(client, o, clientAs) {
    // A dedicated read-only user for the console, when configured (sql/README.md, SQL console).
    const consoleUser = consoleCredentials();
    // On a cluster, statements joining Distributed tables need the cluster's read settings.
    const base = o.cluster ? CLUSTER_READ_SETTINGS : {};
    const storeConsole = createServerConsole(client, o.database, false, base);
    return consoleUser
      ? createSqlConsole(createServerConsole(clientAs(consoleUser), o.database, true, base), storeConsole)
      : createSqlConsole(storeConsole);
  },
  async ensureSchema(client, o) {
    const plan = await planMigration(client, resolveSqlDir());
    // Never write to a schema a newer release made; migrate (embedded, or a server without a
    // cluster) or, where this process must not alter the schema, refuse a schema that is behind.
    assertNotNewer(plan);
    if (o.migrate) {
      await applyMigration(client, plan, {
        ttlDays: o.ttlDays,
        backfill: o.mode === 'embedded',
        onProgress: plan.applied.length > 0 ? (line) => console.log(`faultline: migrate ${line}`) : undefined,
      });
    } else if (plan.schema.length > 0) {
      throw new SchemaBehindError(plan.current, plan.known, plan.schema.length);
    }
    return { version: Math.max(plan.current, plan.known), known: plan.known };
  },
};

/**
 * Opens the store: embedded chDB under FAULTLINE_DATA_DIR by default, or a ClickHouse server at
 * FAULTLINE_CLICKHOUSE_URL, through the same @clickhouse/client code path; applies sql/schema.
 * Handles for the same data directory or server share one engine (kept on globalThis), and the
 * engine closes when the last handle closes.
 *
 * A server that is unreachable at open is not an error: the schema is applied on first use
 * (`ensureSchema`, which the writer calls before inserting), so the collector can start, spool,
 * and catch up when ClickHouse comes back.
 */
export function openStore(options?: StoreOptions): Promise<Store> {
  return openStoreWith(STORE_PARTS, options);
}
