/** Runs a named query through the dashboard's own SQL endpoint (the data dir is the server's). */
export async function namedQuery(
  baseUrl: string,
  name: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${baseUrl}/api/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, params }),
  });
  const json = (await res.json()) as { rows?: Record<string, unknown>[]; error?: string };
  if (!res.ok || !json.rows) throw new Error(`named query ${name} failed: ${json.error ?? res.status}`);
  return json.rows;
}
