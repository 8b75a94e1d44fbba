import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import tls from 'node:tls';
import type { ErrorCase } from '../corpus-case.js';

const NODE = 'Node.js 20.20 (provoked for real on this machine)';

/** TLS client against a plaintext HTTP server: OpenSSL rejects the first record. */
async function tlsToPlaintext(): Promise<unknown> {
  const server = http.createServer((_req, res) => res.end('plain'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
      socket.once('error', resolve);
      socket.once('secureConnect', () => {
        socket.destroy();
        reject(new Error('expected the TLS handshake to fail'));
      });
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function dnsMiss(): Promise<unknown> {
  try {
    await dns.promises.lookup('h6corpus-no-such-host.invalid');
  } catch (err) {
    return err;
  }
  throw new Error('expected the lookup to fail');
}

async function prematureClose(): Promise<unknown> {
  const stream = new Readable({ read() {} });
  setTimeout(() => stream.destroy(), 5);
  try {
    await finished(stream);
  } catch (err) {
    return err;
  }
  throw new Error('expected a premature close');
}

async function fetchWithUrlCredentials(password: string): Promise<unknown> {
  try {
    await fetch(`http://svc:${password}@127.0.0.1:1/orders`);
  } catch (err) {
    return err;
  }
  throw new Error('expected fetch to refuse a URL with credentials');
}

/** TLS, DNS and stream failures as Node really raises them. */
export const realSocketCases: ErrorCase[] = [
  {
    id: 'node-tls-wrong-version-number-real',
    origin: `${NODE}: tls.connect to a plaintext port → ERR_SSL_WRONG_VERSION_NUMBER (library/reason/code from OpenSSL)`,
    note: 'Speaking TLS to a plaintext port is a configuration error: retrying changes nothing.',
    build: () => tlsToPlaintext(),
    expected: {
      class: 'permanent',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      retryable: false,
      retry_after: null,
    },
  },
  {
    id: 'node-dns-lookup-miss-real',
    origin: `${NODE}: dns.lookup of a .invalid name → ENOTFOUND (EAI_AGAIN where no resolver answers)`,
    note: 'Same call as the AWS SDK treats as retryable (smithy NODEJS_NETWORK_ERROR_CODES).',
    build: () => dnsMiss(),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'node-stream-premature-close-real',
    origin: `${NODE}: stream.finished on a destroyed Readable → ERR_STREAM_PREMATURE_CLOSE (how got/undici bodies end early)`,
    build: () => prematureClose(),
    expected: { class: 'transient', code: 'ERR_STREAM_PREMATURE_CLOSE', retryable: true },
  },
  {
    id: 'fetch-url-with-credentials-real',
    origin: `${NODE}: fetch("http://user:pass@host") → TypeError whose message repeats the URL, password included`,
    note: 'A programming error with no typed signal: permanent. The password in the message must be redacted.',
    secrets: ['h6FetchUrlPa55'],
    build: () => fetchWithUrlCredentials('h6FetchUrlPa55'),
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
];
