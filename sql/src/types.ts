import type { ClickHouseClient } from '@clickhouse/client';

/**
 * One `otel_traces` row as the writer inserts it, in ClickHouse `JSONEachRow` format with the
 * OpenTelemetry Collector ClickHouse exporter's 22 columns (`Events.*` and `Links.*` flattened
 * into parallel arrays, exactly as the exporter's INSERT names them).
 *
 * Encoding rules (checked by test/writer and test/schema):
 * - `Timestamp` and `Events.Timestamp[i]`: unix seconds with a 9-digit fraction as a string,
 *   e.g. `"1732886400.123456789"`. A decimal unix time is
 *   time-zone independent and keeps full nanosecond precision, which a JS number cannot.
 * - `Duration`: nanoseconds; a number is fine below 2^53 ns (104 days), else a decimal string.
 * - Attribute maps: every value stringified as the exporter does (booleans `"true"`/`"false"`,
 *   numbers in decimal, arrays and kvlists as JSON).
 * - `SpanKind`: `Server` | `Client` | `Internal` | `Producer` | `Consumer` | `Unspecified`;
 *   `StatusCode`: `Unset` | `Ok` | `Error`.
 */
export interface TraceRow {
  Timestamp: string;
  TraceId: string;
  SpanId: string;
  ParentSpanId: string;
  TraceState: string;
  SpanName: string;
  SpanKind: string;
  ServiceName: string;
  ResourceAttributes: Record<string, string>;
  ScopeName: string;
  ScopeVersion: string;
  SpanAttributes: Record<string, string>;
  Duration: number | string;
  StatusCode: string;
  StatusMessage: string;
  'Events.Timestamp': string[];
  'Events.Name': string[];
  'Events.Attributes': Record<string, string>[];
  'Links.TraceId': string[];
  'Links.SpanId': string[];
  'Links.TraceState': string[];
  'Links.Attributes': Record<string, string>[];
}

/** Options for `openStore`; each falls back to its environment variable. */
export interface StoreOptions {
  /** Embedded chDB data directory. Env `FAULTLINE_DATA_DIR`, default `./.faultline/data`. */
  dataDir?: string;
  /** A ClickHouse server's HTTP URL instead of embedded chDB. Env `FAULTLINE_CLICKHOUSE_URL`. */
  url?: string;
  /** Env `FAULTLINE_CLICKHOUSE_USER`. */
  username?: string;
  /** Env `FAULTLINE_CLICKHOUSE_PASSWORD`. */
  password?: string;
  /** Env `FAULTLINE_CLICKHOUSE_DATABASE`, default `default`. */
  database?: string;
  /** Days to keep spans; 0 keeps them forever. Env `FAULTLINE_TTL_DAYS`, default 0. */
  ttlDays?: number;
  /** Apply pending schema steps when opening (env FAULTLINE_MIGRATE_ON_START; default: yes unless a cluster). */
  migrate?: boolean;
  /** Apply sql/schema at open (default true). A server that is down is reported by the first use. */
  applySchema?: boolean;
}

export type StoreMode = 'embedded' | 'server';

/** Column name and ClickHouse type of a result, as ClickHouse reports it in `meta`. */
export interface ColumnMeta {
  name: string;
  type: string;
}

export interface QueryResult<T> {
  rows: T[];
  meta: ColumnMeta[];
  /** Present when a row limit cut the result short. */
  truncated?: boolean;
  statistics?: { elapsed: number; rows_read: number; bytes_read: number };
}

export interface RunNamedOptions {
  /** Abort the query (e.g. when the HTTP request that asked for it goes away). */
  signal?: AbortSignal;
  /** Server-side time limit in seconds (default 30). */
  maxExecutionSeconds?: number;
  /** More ClickHouse settings for this query (the store adds a cluster's read settings itself). */
  settings?: Record<string, string | number>;
}

export interface RunReadOnlyOptions {
  /** Rows returned at most (default 10 000); more sets `truncated`. */
  maxRows?: number;
  /** Server-side time limit in seconds (default 10). */
  maxExecutionSeconds?: number;
  /** Result bytes at most (default 64 MiB); more sets `truncated`. */
  maxResultBytes?: number;
  /** Engine memory one statement may use (default 512 MiB); more fails the statement. */
  maxMemoryBytes?: number;
  /** Stops the statement in the engine when aborted (the HTTP request that asked went away). */
  signal?: AbortSignal;
}

/** A named query's parameter, as declared by `{name:Type}` in its SQL file. */
export interface NamedQueryParam {
  name: string;
  type: string;
}

export interface NamedQueryInfo {
  name: string;
  description: string;
  params: NamedQueryParam[];
}

export interface Store {
  client: ClickHouseClient;
  mode: StoreMode;
  /** Database the tables live in. */
  database: string;
  /**
   * Embedded only: the data directory, locked by this process while a handle is open. The
   * writer keeps its write-ahead log under it (`<dataDir>/wal`) unless told otherwise.
   */
  dataDir?: string;
  /** Runs sql/queries/<name>.sql with validated `{p:Type}` parameters. */
  runNamed<T = Record<string, unknown>>(
    name: string,
    params?: Record<string, unknown>,
    opts?: RunNamedOptions,
  ): Promise<QueryResult<T>>;
  /**
   * Runs one statement for the SQL console: SELECT / WITH / EXPLAIN / SHOW TABLES / SHOW CREATE /
   * DESCRIBE over Faultline's tables and a few harmless system tables and table functions, decided
   * from ClickHouse's parse (anything else is refused with a `ConsoleRefusal` saying what is
   * allowed), on a readonly connection of its own with row, byte, time and memory limits.
   */
  runReadOnly<T = Record<string, unknown>>(
    sql: string,
    params?: Record<string, unknown>,
    opts?: RunReadOnlyOptions,
  ): Promise<QueryResult<T>>;
  /**
   * Applies sql/schema if not yet done. openStore does it already, except against a server that was
   * unreachable at open; the writer calls this before inserting so the schema follows the server.
   */
  /** The schema version once opening checked or migrated it (null before, or when not applied). */
  schemaVersion?(): { version: number; known: number } | null;
  ensureSchema(): Promise<void>;
  /** Idempotent. Handles share one engine per data directory; it closes with the last handle. */
  close(): Promise<void>;
}
