/**
 * One console request's own connection to ClickHouse: embedded, a fresh chDB session; on a server,
 * HTTP requests without a session id. Either way nothing (a SET, a temporary table) outlives the
 * request or is seen by another, and the limits were fixed when it opened.
 */
export interface ConsoleConnection {
  /** Rows of a small internal query (the lexer, EXPLAIN AST), JSONCompactEachRow decoded. */
  rows(sql: string, params: Record<string, unknown>): Promise<unknown[]>;
  /**
   * The statement's output as RESULT_FORMAT lines. `stream` asks for it
   * chunk by chunk (SELECT); the engine cannot stream EXPLAIN, SHOW or DESCRIBE, which are small.
   * Stopping the iteration early stops the query.
   */
  lines(sql: string, params: Record<string, unknown>, stream: boolean): AsyncIterable<string>;
  /** Stops whatever runs on this connection (the caller went away). Best effort, never throws. */
  cancel(): Promise<void>;
  close(): void;
}

/** Opens console connections; one per store engine, shared by every console request. */
export interface ConsoleBackend {
  /** The database Faultline's tables live in. */
  readonly database: string;
  /** A new isolated connection under `settings` (readonly and the limits among them). */
  open(settings: ConsoleSettings): Promise<ConsoleConnection>;
  close(): Promise<void>;
}

/** The output format of console results: a names line, a types line, then one JSON array per row. */
export const RESULT_FORMAT = 'JSONCompactEachRowWithNamesAndTypes';

/** ClickHouse settings fixed for a whole console connection. */
export type ConsoleSettings = Readonly<Record<string, string | number>>;
