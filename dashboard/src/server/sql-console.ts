import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NamedQueryInfo } from '@faultline/collector';
import { collectorModule } from './collector-module';
import { getStore } from './store';

export const CONSOLE_MAX_ROWS = 10_000;
export const CONSOLE_MAX_SECONDS = 15;

export interface ConsoleNamedQuery extends NamedQueryInfo {
  /** The file's text, shown so people can copy and adapt it. */
  sql: string;
}

export async function consoleNamedQueries(): Promise<ConsoleNamedQuery[]> {
  const { listNamedQueries, resolveSqlDir } = await collectorModule();
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
 * Named queries run through the store's typed helper; free SQL runs under ClickHouse readonly with
 * time and row limits, so a write is refused by the engine itself.
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
