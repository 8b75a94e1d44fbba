import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

/** The silent failure of issue #9: a 200 whose JSON says the call failed, sent without a length. */
export const DECLINED_BODY = '{"ok":false,"error":"card_declined"}';
export const FINE_BODY = '{"ok":true,"items":[1,2]}';
export const LARGE_BODY_BYTES = 50 * 1024 * 1024;
/**
 * How long /slow waits for the client's ack before sending its second chunk anyway. Generous: a
 * loaded machine can take seconds to schedule the fixture, and the server holds the second chunk
 * that long only when the first never reached the application.
 */
const ACK_WAIT_MS = 15_000;

/** What the server sent on one URL, to compare with what the application received. */
export interface Sent {
  bytes: number;
  sha256: string;
}

/**
 * A local dependency that answers only with chunked bodies (no Content-Length), as frameworks do
 * with res.write/res.end. Keyed by the request URL (path and query), so each consumer style in a
 * fixture has its own span and its own record.
 */
export interface ChunkedUpstream {
  url: string;
  sent: Map<string, Sent>;
  /** For /slow: whether the client acknowledged the first chunk before the second was sent. */
  ackedBeforeSecond: Map<string, boolean>;
  close(): Promise<void>;
}

export async function startChunkedUpstream(): Promise<ChunkedUpstream> {
  const sent = new Map<string, Sent>();
  const ackedBeforeSecond = new Map<string, boolean>();
  const acks = new Map<string, () => void>();
  // Each /slow response names its own ack: the bare and the preloaded fixture run at once, and
  // an ack keyed by the path alone could release the other run's wait.
  let slowResponses = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const key = `${url.pathname}${url.search}`;
    if (url.pathname === '/ack') {
      acks.get(url.searchParams.get('for') ?? '')?.();
      res.writeHead(204).end();
      return;
    }
    const gzip = url.searchParams.get('gzip') === '1';
    const ackId = url.pathname === '/slow' ? `${url.searchParams.get('via') ?? ''}-${++slowResponses}` : '';
    res.writeHead(200, {
      ...(ackId ? { 'x-ack-id': ackId } : {}),
      'content-type': 'application/json; charset=utf-8',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    const done = (bytes: number, hash: string): void => {
      sent.set(key, { bytes, sha256: hash });
    };
    if (url.pathname === '/large') {
      void sendLarge(res).then((s) => done(s.bytes, s.sha256));
      return;
    }
    if (url.pathname === '/slow') {
      res.write(DECLINED_BODY.slice(0, 12));
      const acked = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ACK_WAIT_MS);
        acks.set(ackId, () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      void acked.then((ok) => {
        acks.delete(ackId);
        // Both runs' answers: false if either was not acknowledged in time.
        ackedBeforeSecond.set(key, ok && ackedBeforeSecond.get(key) !== false);
        res.end(DECLINED_BODY.slice(12));
      });
      return;
    }
    const body =
      url.pathname === '/fine'
        ? FINE_BODY
        : url.pathname === '/sized'
          ? declinedOfSize(Number(url.searchParams.get('bytes')))
          : DECLINED_BODY;
    // Three writes, the last after a pause: the client sees several chunks, none declaring a length.
    const out = gzip ? createGzip() : res;
    if (gzip) out.pipe(res);
    const third = Math.floor(body.length / 3);
    out.write(body.slice(0, third));
    out.write(body.slice(third, 2 * third));
    setTimeout(() => out.end(body.slice(2 * third)), 10);
  });
  // Keep-alive sockets from fixtures must not hold their exit or close() open.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    ackedBeforeSecond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The declined body padded to exactly `bytes` bytes (ASCII), to probe the bound's edge. */
export function declinedOfSize(bytes: number): string {
  const head = '{"ok":false,"error":"card_declined","pad":"';
  const tail = '"}';
  return `${head}${'x'.repeat(Math.max(0, bytes - head.length - tail.length))}${tail}`;
}

/**
 * 50 MiB of JSON that says the call failed, in 64 KiB writes that respect backpressure. The pad
 * varies (a counter in base 36), so a dropped, repeated or reordered chunk changes the hash.
 */
async function sendLarge(res: ServerResponse): Promise<Sent> {
  const hash = createHash('sha256');
  let bytes = 0;
  const write = async (chunk: Buffer): Promise<void> => {
    hash.update(chunk);
    bytes += chunk.length;
    if (!res.write(chunk)) await once(res, 'drain');
  };
  const head = Buffer.from('{"ok":false,"error":"card_declined","pad":"');
  const tail = Buffer.from('"}');
  await write(head);
  let n = 0;
  while (bytes + tail.length < LARGE_BODY_BYTES) {
    const room = LARGE_BODY_BYTES - tail.length - bytes;
    let text = '';
    while (text.length < 64 * 1024) text += `${(n++).toString(36)}-`;
    await write(Buffer.from(text.slice(0, Math.min(64 * 1024, room))));
  }
  await write(tail);
  res.end();
  return { bytes, sha256: hash.digest('hex') };
}
