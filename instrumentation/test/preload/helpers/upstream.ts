import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The local HTTP dependency the fixtures call: failing statuses, a 200 whose JSON body says it
 * failed, and a success. Counts hits per path so enforce mode can prove nothing left the process.
 */
export interface Upstream {
  url: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export const SILENT_FAILURE_BODY = JSON.stringify({
  ok: false,
  error: { code: 'insufficient_funds', message: 'Balance 42.10 below requested 150.00' },
});

export async function startUpstream(): Promise<Upstream> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const status = /^\/status\/(\d{3})$/.exec(path)?.[1];
    if (status) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (status === '429') headers['retry-after'] = '7';
      const body = JSON.stringify({ error: `status ${status}` });
      headers['content-length'] = String(Buffer.byteLength(body));
      res.writeHead(Number(status), headers).end(body);
      return;
    }
    if (path === '/ok-false') {
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(SILENT_FAILURE_BODY)),
        })
        .end(SILENT_FAILURE_BODY);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  // Keep-alive sockets from fixtures must not hold close() open.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was just free: connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
