import { randomUUID } from 'node:crypto';
import type { QueryResult, RunReadOnlyOptions } from '../types.js';
import { type CheckedStatement, checkConsoleStatement } from './check-console-statement.js';
import type { ConsoleConnection, ConsoleSettings } from './console-connection.js';
import { checkSettings, consoleSettings, resolveLimits } from './console-limits.js';
import { ConsoleRefusal } from './console-refusal.js';
import { PolicyViolation } from './policy-violation.js';
import { readResultLines } from './read-result-lines.js';
import type { SqlConsole } from './sql-console.js';

function cancelled(signal: AbortSignal): Error {
  const err = new Error('The console statement was cancelled: its client went away.', {
    cause: signal.reason,
  });
  err.name = 'AbortError';
  return err;
}

/**
 * Runs one statement for the SQL console: only what incident review needs over Faultline's data
 * (decided from ClickHouse's own parse, see src/console/console-policy.ts), in one of a few
 * console slots. The check and the run each get a connection of their own, read-only with the
 * limits fixed when it opens, closed when done. A caller that goes away (`signal`) stops the
 * statement in the engine.
 */
export async function runReadOnly<T>(
  sqlConsole: SqlConsole,
  sql: string,
  params: Record<string, unknown> = {},
  opts: RunReadOnlyOptions = {},
): Promise<QueryResult<T>> {
  const limits = resolveLimits(opts);
  const { signal } = opts;
  const leave = await sqlConsole.gate.enter(signal);
  // The connection working for this request right now, stopped if its caller goes away.
  let conn: ConsoleConnection | undefined;
  const stop = () => void conn?.cancel();
  signal?.addEventListener('abort', stop, { once: true });
  const open = async (settings: ConsoleSettings) => {
    conn = await sqlConsole.backend.open(settings);
    if (signal?.aborted) throw cancelled(signal);
    return conn;
  };
  try {
    const catalogue = await sqlConsole.catalogue();
    const settings = consoleSettings(limits, `faultline-console:${randomUUID()}`);
    let checked: CheckedStatement;
    try {
      checked = await checkConsoleStatement(await open(checkSettings(settings)), sql, params, catalogue);
    } catch (err) {
      if (err instanceof PolicyViolation) throw new ConsoleRefusal(err.message, catalogue);
      throw err;
    } finally {
      conn?.close();
      conn = undefined;
    }
    const { statement, kind } = checked;
    return await readResultLines<T>(
      (await open(settings)).lines(statement.text, params, kind === 'select'),
      limits,
    );
  } catch (err) {
    if (signal?.aborted) throw cancelled(signal);
    throw err;
  } finally {
    signal?.removeEventListener('abort', stop);
    conn?.close();
    leave();
  }
}
