import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  ClickHouseLogLevel,
  createClient,
} from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { CLUSTER_READ_SETTINGS } from '../cluster/cluster-settings.js';
import { isConnectionError } from '../connection/connection-error.js';
import { type ChdbRawInsert, registerEmbeddedClient } from '../connection/embedded-connections.js';
import { flushAfterError } from '../connection/flush-after-error.js';
import { runReadOnly } from '../console/run-read-only.js';
import type { SqlConsole } from '../console/sql-console.js';
import type { Store, StoreOptions } from '../types.js';
import { runNamed } from './run-named.js';
import { type ResolvedStoreOptions, resolveStoreOptions } from './store-options.js';
import type { HeldDirectory, StoreParts } from './store-parts.js';

/** 64-bit integers come back as JSON numbers: counts and nanosecond sums stay far below 2^53. */
const CLIENT_SETTINGS = { output_format_json_quote_64bit_integers: 0 } as const;

/** What every handle of one data directory or server shares. */
interface StoreCore {
  key: string;
  parts: StoreParts;
  options: ResolvedStoreOptions;
  client: ClickHouseClient;
  /** Embedded only: a readonly session for named queries. */
  namedClient?: ClickHouseClient;
  /** The SQL console: a connection of its own per statement (see src/console/). */
  sqlConsole: SqlConsole;
  refs: number;
  /** Embedded only: this process's lock on the data directory, released with the last handle. */
  lock?: HeldDirectory;
  schema?: Promise<void>;
  schemaApplied: boolean;
  schemaVersion?: { version: number; known: number };
}

interface Registry {
  cores: Map<string, Promise<StoreCore>>;
}

// On globalThis, not module scope: Next.js may load this module twice (its own bundle and the
// custom server), and chDB binds one data directory per process, so both must share one engine.
const REGISTRY_KEY = Symbol.for('faultline.store.registry');
function registry(): Registry {
  const g = globalThis as { [REGISTRY_KEY]?: Registry };
  g[REGISTRY_KEY] ??= { cores: new Map() };
  return g[REGISTRY_KEY];
}

function createServerClient(
  o: ResolvedStoreOptions,
  database: string,
  user: { username?: string; password?: string } = o,
): ClickHouseClient {
  return createClient({
    url: o.url,
    username: user.username,
    password: user.password,
    database,
    clickhouse_settings: CLIENT_SETTINGS,
    request_timeout: 30_000,
    // Failed requests surface as rejected promises; the writer reports outages itself, once,
    // instead of the client logging every refused connection while ClickHouse is down.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

function createEmbeddedClient(path: string): ClickHouseClient {
  // chdb/connection implements the Connection of its own copy of @clickhouse/client-common; the
  // shapes match, only the declaration files differ.
  const chdb = createChdbConnection({ path });
  const connection = chdb as unknown as ClickHouseClientConfigOptions['connection'];
  const client = createClient({ connection, clickhouse_settings: CLIENT_SETTINGS });
  registerEmbeddedClient(client, chdb.chdb as unknown as ChdbRawInsert);
  return client;
}

async function createCore(key: string, o: ResolvedStoreOptions, parts: StoreParts): Promise<StoreCore> {
  if (o.mode === 'embedded') {
    for (const other of registry().cores.keys()) {
      if (other.startsWith('embedded:') && other !== key) {
        throw new Error(
          `chDB is already open on ${other.slice('embedded:'.length)} in this process; one process can open one data directory. Use the same FAULTLINE_DATA_DIR or run a second process.`,
        );
      }
    }
    const lock = parts.holdDirectory(o.dataDir);
    try {
      return await openEmbeddedCore(key, o, lock, parts);
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  const client = createServerClient(o, o.database);
  const sqlConsole = parts.serverConsole(client, o, (user) => createServerClient(o, o.database, user));
  return { key, parts, options: o, client, sqlConsole, refs: 0, schemaApplied: false };
}

async function openEmbeddedCore(
  key: string,
  o: ResolvedStoreOptions,
  lock: HeldDirectory,
  parts: StoreParts,
): Promise<StoreCore> {
  // chDB applies per-request settings as SETs that persist in the session. Two sessions on the
  // one engine keep them apart: writes (never given per-request settings) and named queries
  // (always given the same ones). The console opens a session of its own per statement.
  const client = createEmbeddedClient(o.dataDir);
  const namedClient = createEmbeddedClient(o.dataDir);
  if (o.database !== 'default') {
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${o.database}` });
  }
  for (const c of [client, namedClient]) {
    if (o.database !== 'default') await c.command({ query: `USE ${o.database}` });
    if (c !== client) await c.command({ query: 'SET readonly = 2' });
  }
  const sqlConsole = parts.embeddedConsole(o.dataDir, o.database);
  return { key, parts, options: o, client, namedClient, sqlConsole, refs: 0, lock, schemaApplied: false };
}

/** Applies sql/schema once per core; a failed attempt is forgotten so the next call retries. */
function ensureSchema(core: StoreCore): Promise<void> {
  core.schema ??= (async () => {
    const o = core.options;
    if (o.mode === 'server' && o.database !== 'default') {
      const bootstrap = createServerClient(o, 'default');
      try {
        await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${o.database}` });
      } finally {
        await bootstrap.close();
      }
    }
    core.schemaVersion = await core.parts.ensureSchema(core.client, o);
    core.schemaApplied = true;
  })().catch((err: unknown) => {
    core.schema = undefined;
    throw err;
  });
  return core.schema;
}

function makeHandle(core: StoreCore): Store {
  let closed = false;
  const embedded = core.options.mode === 'embedded';
  return {
    client: core.client,
    mode: core.options.mode,
    database: core.options.database,
    dataDir: embedded ? core.options.dataDir : undefined,
    runNamed: (name, params, opts) => {
      const client = core.namedClient ?? core.client;
      // On a cluster the named queries' IN subqueries over Distributed tables need these.
      const withCluster = core.options.cluster
        ? { ...opts, settings: { ...CLUSTER_READ_SETTINGS, ...opts?.settings } }
        : opts;
      return flushAfterError(client, embedded, () => runNamed(client, name, params, withCluster));
    },
    runReadOnly: (sql, params, opts) => runReadOnly(core.sqlConsole, sql, params, opts),
    ensureSchema: () => (core.schemaApplied ? Promise.resolve() : ensureSchema(core)),
    schemaVersion: () => core.schemaVersion ?? null,
    async close() {
      if (closed) return;
      closed = true;
      if (--core.refs > 0) return;
      registry().cores.delete(core.key);
      try {
        await core.sqlConsole.close();
        await core.namedClient?.close();
        await core.client.close();
      } finally {
        core.lock?.release();
      }
    },
  };
}

/**
 * Opens a store from `parts` (the package entry's `openStore` passes the real ones): handles for
 * the same data directory or server share one engine, kept on globalThis, which closes when the
 * last handle closes. A server unreachable at open is not an error (see `openStore`).
 */
export async function openStoreWith(parts: StoreParts, options?: StoreOptions): Promise<Store> {
  const o = resolveStoreOptions(options);
  const key = o.mode === 'embedded' ? `embedded:${o.dataDir}` : `server:${o.url}/${o.database}`;
  const cores = registry().cores;
  let pending = cores.get(key);
  if (!pending) {
    pending = createCore(key, o, parts);
    cores.set(key, pending);
    pending.catch(() => cores.delete(key));
  }
  const core = await pending;
  core.refs++;
  const handle = makeHandle(core);
  if (o.applySchema) {
    try {
      await handle.ensureSchema();
    } catch (err) {
      if (!(o.mode === 'server' && isConnectionError(err))) {
        await handle.close();
        throw err;
      }
    }
  }
  return handle;
}
