import {
  consoleErrorStatus,
  parseConsoleRequest,
  readConsoleBody,
  runConsole,
} from '../../../src/server/sql-console';

export const dynamic = 'force-dynamic';

/** POST {"sql": "..."} or {"name": "dashboard/...", "params": {...}} → {columns, rows, truncated, elapsedMs}. */
export async function POST(request: Request): Promise<Response> {
  try {
    const req = parseConsoleRequest(await readConsoleBody(request));
    return Response.json(await runConsole(req, request.signal));
  } catch (err) {
    // Refusals, parameter and ClickHouse errors already say what was wrong and what is allowed.
    const message = err instanceof Error ? err.message : String(err);
    const { status, retryAfter } = consoleErrorStatus(err);
    const headers = retryAfter ? { 'Retry-After': String(retryAfter) } : undefined;
    return Response.json({ error: message }, { status, headers });
  }
}
