import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { assertIdentifier } from '../ddl/identifier.js';
import { embeddedRawInsert } from './embedded-connections.js';

const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

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
