import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NamedQueryInfo } from '@faultline/sql';
import { sqlModule } from './sql-module';
import { getStore } from './store';

export const CONSOLE_MAX_ROWS = 10_000;
export const CONSOLE_MAX_SECONDS = 15;

export interface ConsoleNamedQuery extends NamedQueryInfo {
  /** The file's text, shown so people can copy and adapt it. */
  sql: string;
}

export async function consoleNamedQueries(): Promise<ConsoleNamedQuery[]> {
  const { listNamedQueries, resolveSqlDir } = await sqlModule();
  const dir = join(resolveSqlDir(), 'queries');
  return listNamedQueries().map((q) => ({ ...q, sql: readFileSync(join(dir, `${q.name}.sql`), 'utf8') }));
}

export type ConsoleRequest =
  | { mode: 'named'; name: string; params: Record<string, unknown> }
  | { mode: 'sql'; sql: string };

export interface ConsoleResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  truncated: boolean;
  elapsedMs: number;
}

/** The largest request body the console reads (its statements are at most 64 KiB). */
export const CONSOLE_MAX_BODY_BYTES = 256 * 1024;

/** A request the console answers with `status` before running anything. */
export class ConsoleRequestError extends Error {
  override name = 'ConsoleRequestError';

  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Reads the JSON body, at most CONSOLE_MAX_BODY_BYTES of it: chunks are counted as they arrive,
 * so a huge or endless body is cut off instead of held in memory whole.
 */
export async function readConsoleBody(request: Request): Promise<unknown> {
  const tooLarge = () =>
    new ConsoleRequestError(
      `The request body is over ${CONSOLE_MAX_BODY_BYTES / 1024} KiB; the console takes one statement of up to 64 KiB.`,
      413,
    );
  if (Number(request.headers.get('content-length') ?? 0) > CONSOLE_MAX_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > CONSOLE_MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ConsoleRequestError('The body is not JSON: send {"sql": "SELECT …"}.', 400);
  }
}

/**
 * The HTTP status of a failed console request: 413 and 400 for the request itself, 503 (with
 * Retry-After) when every console slot stayed taken, 400 for a refused or failed statement (the
 * message says why: a ConsoleRefusal names what is allowed, ClickHouse's errors say what failed).
 */
export function consoleErrorStatus(err: unknown): { status: number; retryAfter?: number } {
  if (err instanceof ConsoleRequestError) return { status: err.status };
  if (err instanceof Error && err.name === 'ConsoleBusyError') {
    return {
      status: 503,
      retryAfter: (err as Error & { retryAfterSeconds?: number }).retryAfterSeconds ?? 1,
    };
  }
  return { status: 400 };
}

/** Checks the JSON body of a console request; throws TypeError saying what is wrong. */
export function parseConsoleRequest(body: unknown): ConsoleRequest {
  if (typeof body !== 'object' || body === null)
    throw new TypeError('Send a JSON object: {"sql": "SELECT …"} or {"name": "…", "params": {…}}.');
  const b = body as Record<string, unknown>;
  if (typeof b.name === 'string') {
    const params = b.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new TypeError('"params" must be an object of parameter names to values.');
    }
    return { mode: 'named', name: b.name, params: params as Record<string, unknown> };
  }
  if (typeof b.sql === 'string') return { mode: 'sql', sql: b.sql };
  throw new TypeError(
    'Send {"sql": "SELECT …"} for a statement, or {"name": "dashboard/…", "params": {…}} for a named query.',
  );
}

/**
 * Named queries run through the store's typed helper; free SQL through the store's console
 * (`runReadOnly`): one statement over Faultline's data, checked by ClickHouse's parser, on a
 * readonly connection of its own with row, byte, time and memory limits. `signal` (the HTTP
 * request's) stops the statement in the engine when the browser goes away.
 */
export async function runConsole(req: ConsoleRequest, signal?: AbortSignal): Promise<ConsoleResult> {
  const store = await getStore();
  const started = performance.now();
  const result =
    req.mode === 'named'
      ? await store.runNamed<Record<string, unknown>>(req.name, req.params, {
          maxExecutionSeconds: CONSOLE_MAX_SECONDS,
          signal,
        })
      : await store.runReadOnly<Record<string, unknown>>(
          req.sql,
          {},
          {
            maxRows: CONSOLE_MAX_ROWS,
            maxExecutionSeconds: CONSOLE_MAX_SECONDS,
            signal,
          },
        );
  const truncated = Boolean(result.truncated) || result.rows.length > CONSOLE_MAX_ROWS;
  return {
    columns: result.meta,
    rows: result.rows.slice(0, CONSOLE_MAX_ROWS),
    truncated,
    elapsedMs: Math.round(performance.now() - started),
  };
}
