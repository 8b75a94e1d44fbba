import { parseConsoleRequest, runConsole } from '../../../src/server/sql-console';

export const dynamic = 'force-dynamic';

/** POST {"sql": "..."} or {"name": "dashboard/...", "params": {...}} → {columns, rows, truncated, elapsedMs}. */
export async function POST(request: Request): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: 'The body is not JSON: send {"sql": "SELECT …"}.' }, { status: 400 });
  }
  try {
    const req = parseConsoleRequest(body);
    return Response.json(await runConsole(req, request.signal));
  } catch (err) {
    // ClickHouse and parameter errors already say what was wrong (e.g. "readonly mode", "missing from").
    const message = err instanceof Error ? err.message : String(err);
    return Response.json({ error: message }, { status: 400 });
  }
}
