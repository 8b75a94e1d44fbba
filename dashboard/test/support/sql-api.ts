/**
 * Headers a same-origin page's POST carries: the dashboard refuses a POST without an Origin (or a
 * bearer token) and any body that is not application/json (see dashboard/src/server/auth/).
 */
export function consoleHeaders(baseUrl: string): Record<string, string> {
  return { 'content-type': 'application/json', origin: new URL(baseUrl).origin };
}

/** Runs a named query through the dashboard's own SQL endpoint (the data dir is the server's). */
export async function namedQuery(
  baseUrl: string,
  name: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${baseUrl}/api/sql`, {
    method: 'POST',
    headers: consoleHeaders(baseUrl),
    body: JSON.stringify({ name, params }),
  });
  const json = (await res.json()) as { rows?: Record<string, unknown>[]; error?: string };
  if (!res.ok || !json.rows) throw new Error(`named query ${name} failed: ${json.error ?? res.status}`);
  return json.rows;
}
