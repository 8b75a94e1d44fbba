import type { Readable } from 'node:stream';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import {
  type ConsoleBackend,
  type ConsoleConnection,
  type ConsoleSettings,
  RESULT_FORMAT,
} from './console-connection.js';

/** Splits a byte stream into lines as they arrive (UTF-8 kept whole across chunks). */
async function* streamLines(stream: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of stream) {
    const parts = (rest + decoder.decode(chunk as Uint8Array, { stream: true })).split('\n');
    rest = parts.pop() ?? '';
    yield* parts;
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

/**
 * One console request on a ClickHouse server: plain HTTP requests without a session id, so the
 * server gives each its own session, and the limits ride on every request as settings. Closing
 * the response early (row cap) or aborting it (client gone) cancels the query server-side
 * (`cancel_http_readonly_queries_on_client_close`).
 *
 * `exec` with `default_format` rather than `query`: `query` appends `FORMAT …` to the text, and
 * after EXPLAIN that clause would belong to the explained statement, not to EXPLAIN's output.
 */
class ServerConsoleConnection implements ConsoleConnection {
  readonly #abort = new AbortController();

  constructor(
    private readonly client: ClickHouseClient,
    private readonly settings: ConsoleSettings,
  ) {}

  async rows(sql: string, params: Record<string, unknown>): Promise<unknown[]> {
    const rows: unknown[] = [];
    for await (const line of this.#exec(sql, params, 'JSONCompactEachRow')) rows.push(JSON.parse(line));
    return rows;
  }

  lines(sql: string, params: Record<string, unknown>): AsyncIterable<string> {
    return this.#exec(sql, params, RESULT_FORMAT);
  }

  async cancel(): Promise<void> {
    this.#abort.abort();
  }

  close(): void {}

  async *#exec(sql: string, params: Record<string, unknown>, format: string): AsyncGenerator<string> {
    const { stream } = await this.client.exec({
      query: sql,
      query_params: params,
      clickhouse_settings: { ...this.settings, default_format: format } as ClickHouseSettings,
      abort_signal: this.#abort.signal,
    });
    try {
      for await (const line of streamLines(stream)) if (line) yield line;
    } finally {
      stream.destroy();
    }
  }
}

/**
 * Console connections to a ClickHouse server through `client` (the store's, or one logged in as
 * a dedicated read-only user, which this backend then owns and closes).
 */
export function createServerConsole(
  client: ClickHouseClient,
  database: string,
  ownsClient: boolean,
  /** Read settings every statement needs here (a cluster's), beneath the console's own limits. */
  baseSettings: ConsoleSettings = {},
): ConsoleBackend {
  return {
    database,
    async open(settings) {
      return new ServerConsoleConnection(client, { ...baseSettings, ...settings });
    },
    async close() {
      if (ownsClient) await client.close();
    },
  };
}
