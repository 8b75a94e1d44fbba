import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { embeddedRawInsert } from '../store/embedded-connections.js';
import { assertIdentifier } from '../store/identifier.js';
import type { TraceRow } from '../types.js';

const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;
/** The byte that ends every row of a JSONEachRow body; no row contains it raw. */
export const NEWLINE = 0x0a;

/**
 * Rows → a JSONEachRow body (one JSON object per line), the form both inserted and spooled, as
 * the UTF-8 bytes the insert and the spool take. Each line is encoded straight into one buffer of
 * the exact size rather than joined into one string that is then encoded (the ingest bench's
 * "serialize only", old and new interleaved on 2026-12-03: 99,364 and 97,121 spans per CPU-second
 * joined, 157,363 and 166,369 direct).
 * `allocate` supplies the buffer (a BodyPool's `take` in the write-ahead writer).
 * Throws a TypeError naming the contract when a row cannot be serialized (a BigInt, a cycle).
 */
export function serializeRowsToBuffer(
  rows: readonly TraceRow[],
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const lines = new Array<string>(rows.length);
  let bytes = rows.length;
  try {
    for (let i = 0; i < rows.length; i++) {
      const line = JSON.stringify(rows[i]);
      lines[i] = line;
      bytes += Buffer.byteLength(line);
    }
  } catch (err) {
    throw new TypeError(`rows must be JSON-serializable TraceRow objects: ${String(err)}`);
  }
  const body = allocate(bytes);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    at += body.write(lines[i]!, at, 'utf8');
    body[at++] = NEWLINE;
  }
  return body;
}

/** serializeRowsToBuffer as text, for callers that read or edit the lines (tests, tools). */
export function serializeRows(rows: readonly TraceRow[]): string {
  return serializeRowsToBuffer(rows).toString('utf8');
}

export interface InsertBatchOptions {
  /** Default `otel_traces`. */
  table?: string;
  /**
   * ClickHouse insert_deduplication_token: a batch re-sent with the same token (spool replay after
   * an insert whose answer was lost) is dropped by ClickHouse, in the materialized views as well.
   */
  token?: string;
  signal?: AbortSignal;
  /**
   * Input format of `body` (default `JSONEachRow`, what the writer and spool use), e.g.
   * `JSONCompactEachRow` or `TSV` for benchmarks. chDB's raw insert takes text formats only.
   */
  format?: string;
  /** Extra numeric settings (names checked by the writer's options), e.g. `max_insert_threads`. */
  settings?: Record<string, number>;
}

/**
 * One INSERT of an already-serialized body (JSONEachRow unless `format` says otherwise). The settings go in the statement's own
 * SETTINGS clause, not as client settings: chDB applies client settings as session-wide SETs,
 * which would leak a deduplication token into unrelated inserts.
 */
export async function insertBatch(
  client: ClickHouseClient,
  body: string | Buffer,
  options: InsertBatchOptions = {},
): Promise<void> {
  const table = assertIdentifier(options.table ?? 'otel_traces', 'table');
  const format = assertIdentifier(options.format ?? 'JSONEachRow', 'format');
  const settings: Record<string, string | number> = {
    ...options.settings,
    deduplicate_blocks_in_dependent_materialized_views: 1,
  };
  if (options.token !== undefined) {
    if (!TOKEN.test(options.token)) {
      throw new Error(`insert token must match ${TOKEN}, got ${JSON.stringify(options.token)}`);
    }
    settings.insert_deduplication_token = options.token;
  }
  const raw = embeddedRawInsert(client);
  if (raw) {
    // Embedded: chDB parses the buffer in place (zero-copy, multithreaded) instead of the SQL text
    // that exec() builds by concatenating statement and data; measured about twice as fast.
    const values = typeof body === 'string' ? Buffer.from(body) : body;
    await raw.rawInsert({ table, values, format, settings, signal: options.signal });
    return;
  }
  const clause = Object.entries(settings)
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? `'${v}'` : v}`)
    .join(', ');
  const result = await client.exec({
    query: `INSERT INTO ${table} SETTINGS ${clause} FORMAT ${format}`,
    values: Readable.from([body]),
    abort_signal: options.signal,
  });
  // exec hands back the response stream; reading it to the end returns the socket to the pool.
  for await (const _ of result.stream) {
    // An INSERT answers with an empty body.
  }
}
