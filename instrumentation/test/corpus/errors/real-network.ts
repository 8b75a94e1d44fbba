/**
 * Provokes real network failures on this machine (closed ports, servers that hang up, timeouts) and
 * returns exactly what Node, undici's fetch and node:http hand to the application.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/** A port on 127.0.0.1 that was just free: bind to 0, read the port, close. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `fn` against a TCP server that accepts and immediately destroys every socket. */
async function withHangupServer<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((server.address() as AddressInfo).port);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Runs `fn` against an HTTP server that accepts requests and never answers. */
async function withSilentHttpServer<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer(() => {});
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((server.address() as AddressInfo).port);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the operation to fail, it succeeded');
}

/**
 * net.connect to a closed port. With `dualAddress`, the lookup yields two addresses and Node's
 * autoSelectFamily (happy eyeballs) tries both, failing with an AggregateError as it does for
 * "localhost" on dual-stack hosts.
 */
export async function netConnectError(host: string, dualAddress = false): Promise<unknown> {
  const port = await closedPort();
  const multi: net.NetConnectOpts = {
    host,
    port,
    autoSelectFamily: true,
    lookup: (_hostname, _options, callback) =>
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ]),
  };
  return rejection(
    new Promise((resolve, reject) => {
      const socket = net.connect(dualAddress ? multi : { host, port });
      socket.once('connect', () => resolve(socket.destroy()));
      socket.once('error', reject);
    }),
  );
}

export async function fetchClosedPort(pathAndQuery = '/'): Promise<unknown> {
  const port = await closedPort();
  return rejection(fetch(`http://127.0.0.1:${port}${pathAndQuery}`));
}

export function fetchHangup(): Promise<unknown> {
  return withHangupServer((port) => rejection(fetch(`http://127.0.0.1:${port}/`)));
}

export function fetchTimeout(): Promise<unknown> {
  return withSilentHttpServer((port) =>
    rejection(fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(50) })),
  );
}

export function httpRequestHangup(headers: Record<string, string> = {}): Promise<unknown> {
  return withHangupServer((port) =>
    rejection(
      new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path: '/orders', headers }, resolve);
        req.once('error', reject);
        req.end();
      }),
    ),
  );
}

export function fsMissingFile(): Promise<unknown> {
  return rejection(readFile('/nonexistent/h6-corpus/config.json'));
}
