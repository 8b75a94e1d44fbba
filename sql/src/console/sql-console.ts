import { resolveSqlDir } from '../ddl/sql-dir.js';
import { type ConsoleCatalogue, loadCatalogue } from './console-catalogue.js';
import type { ConsoleBackend } from './console-connection.js';
import { ConsoleGate } from './console-gate.js';
import { CATALOGUE_SETTINGS } from './console-limits.js';

/**
 * Statements the console runs at once per engine. Two leave the default libuv pool (4 threads)
 * two for the write-ahead log's fsyncs, the inserts and the dashboard's named queries, and with
 * one thread each, a core for ingest on a two-core machine.
 */
export const CONSOLE_SLOTS = 2;
/** How long a statement waits for a slot before it is refused as busy. */
export const CONSOLE_MAX_WAIT_MS = 5_000;

/** The SQL console of one store engine: its connections, its slots and what it may read. */
export interface SqlConsole {
  readonly backend: ConsoleBackend;
  readonly gate: ConsoleGate;
  /** Faultline's objects and the engine's functions, read once and kept; a failed read is retried. */
  catalogue(): Promise<ConsoleCatalogue>;
  close(): Promise<void>;
}

/**
 * `catalogueBackend` reads the catalogue when console statements run as a dedicated read-only
 * user (server mode): that user may not lift its row cap or parse sql/schema's SETTINGS clauses,
 * and the catalogue is Faultline's own SQL, read through the store's connection instead.
 */
export function createSqlConsole(
  backend: ConsoleBackend,
  catalogueBackend: ConsoleBackend = backend,
  sqlDir: () => string = resolveSqlDir,
): SqlConsole {
  let catalogue: Promise<ConsoleCatalogue> | undefined;
  return {
    backend,
    gate: new ConsoleGate(CONSOLE_SLOTS, CONSOLE_MAX_WAIT_MS),
    catalogue() {
      catalogue ??= (async () => {
        const conn = await catalogueBackend.open(CATALOGUE_SETTINGS);
        try {
          return await loadCatalogue(conn, backend.database, sqlDir());
        } finally {
          conn.close();
        }
      })().catch((err: unknown) => {
        catalogue = undefined;
        throw err;
      });
      return catalogue;
    },
    close: () => backend.close(),
  };
}
