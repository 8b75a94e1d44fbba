import type { ServerResponse } from 'node:http';

/** An RFC 9457 problem details response, for every endpoint that is not OTLP. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}
