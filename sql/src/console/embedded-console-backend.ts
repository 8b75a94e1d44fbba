import { parseError } from '@clickhouse/client';
import { Session } from 'chdb';
import {
  type ConsoleBackend,
  type ConsoleConnection,
  type ConsoleSettings,
  RESULT_FORMAT,
} from './console-connection.js';

/** chDB errors carry ClickHouse's text (`Code: 60. DB::Exception: …`); give them ClickHouseError's shape. */
function clickHouseError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const mapped = parseError(message);
  if (mapped !== err) mapped.cause = err;
  return mapped;
}

const hasParams = (params: Record<string, unknown>) => Object.keys(params).length > 0;

/**
 * One console request on embedded chDB: its own native connection to the one engine (a chDB
 * Session at the same data directory; opening one costs about a millisecond). Settings given at
 * connect, temporary tables and SETs live and die with it.
 */
class EmbeddedConsoleConnection implements ConsoleConnection {
  constructor(
    private readonly session: Session,
    private readonly dataDir: string,
    private readonly tag: string,
  ) {}

  async rows(sql: string, params: Record<string, unknown>): Promise<unknown[]> {
    const text = await this.#whole(sql, params, 'JSONCompactEachRow');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  }

  async *lines(sql: string, params: Record<string, unknown>, stream: boolean): AsyncGenerator<string> {
    // With parameters the statement goes through chDB's bound path, which chDB runs one at a
    // time process-wide (parameters are not isolated per connection there); its result is held
    // whole, bounded by the engine's row and byte limits. Without, it streams chunk by chunk.
    if (!stream || hasParams(params)) {
      for (const line of (await this.#whole(sql, params, RESULT_FORMAT)).split('\n')) if (line) yield line;
      return;
    }
    let results: ReturnType<Session['queryStream']>;
    try {
      results = this.session.queryStream(sql, { format: RESULT_FORMAT });
    } catch (err) {
      throw clickHouseError(err);
    }
    // Each chunk is a block formatted on its own, names and types lines included: the first
    // chunk's are kept, the repeats dropped.
    let header: string[] | undefined;
    try {
      for await (const chunk of results) {
        const lines = chunk.text().split('\n');
        if (lines.at(-1) === '') lines.pop();
        if (!header) {
          header = lines.slice(0, 2);
          yield* lines;
        } else {
          yield* lines[0] === header[0] && lines[1] === header[1] ? lines.slice(2) : lines;
        }
      }
    } catch (err) {
      throw clickHouseError(err);
    } finally {
      // Stops the engine when the reader left early (row cap, byte cap, an error).
      results.cancel();
    }
  }

  async cancel(): Promise<void> {
    // chDB cannot interrupt a running query from JS; KILL QUERY from another connection can. The
    // tag (log_comment) is ours, a UUID: nothing else carries it.
    try {
      const control = new Session(this.dataDir);
      try {
        await control.queryAsync(`KILL QUERY WHERE Settings['log_comment'] = '${this.tag}' ASYNC`);
      } finally {
        control.close();
      }
    } catch {
      // The query may have ended meanwhile; max_execution_time still bounds it.
    }
  }

  close(): void {
    this.session.close();
  }

  async #whole(sql: string, params: Record<string, unknown>, format: string): Promise<string> {
    try {
      const result = hasParams(params)
        ? await this.session.queryBindAsync(sql, params, { format })
        : await this.session.queryAsync(sql, { format });
      return result.text();
    } catch (err) {
      throw clickHouseError(err);
    }
  }
}

/** Console connections on embedded chDB, over the store's data directory. */
export function createEmbeddedConsole(dataDir: string, database: string): ConsoleBackend {
  return {
    database,
    async open(settings: ConsoleSettings): Promise<ConsoleConnection> {
      const session = new Session(dataDir, {
        connectionArgs: Object.entries(settings).map(([name, value]) => `--${name}=${value}`),
      });
      const conn = new EmbeddedConsoleConnection(session, dataDir, String(settings.log_comment ?? ''));
      try {
        // `--database` is not honoured at connect; USE is allowed under readonly.
        if (database !== 'default') await conn.rows(`USE ${database}`, {});
      } catch (err) {
        conn.close();
        throw err;
      }
      return conn;
    },
    async close() {},
  };
}
