import type { ChildProcess } from 'node:child_process';
import { connect, type NatsConnection, StringCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, startServer, stopServer, uniqueName } from './helpers.js';

// nats.js against the real NATS server on 127.0.0.1:4222, plus a private nats-server with a
// user and password (the shared one has no auth) for the authorization violation.
const ctx = { system: 'nats' } as const;

describe('nats.js errors, real NATS', () => {
  let nc: NatsConnection;
  let secured: ChildProcess | undefined;
  let securedPort = 0;

  beforeAll(async () => {
    nc = await connect({ servers: '127.0.0.1:4222' });
    securedPort = await freePort();
    secured = await startServer(
      'nats-server',
      ['-a', '127.0.0.1', '-p', String(securedPort), '--user', 'fl', '--pass', 'right-pass'],
      securedPort,
    );
  });

  afterAll(async () => {
    await nc.close();
    await stopServer(secured);
  });

  it('a request nobody subscribes to → 503 no responders', async () => {
    const err = await rejectionOf(
      nc.request(uniqueName('subj'), StringCodec().encode('hi'), { timeout: 1000 }),
    );
    // No responder right now (not deployed, restarting): like HTTP 503, one may come back.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: '503',
      source: 'messaging',
      retryable: true,
    });
  });

  it('a responder that never answers → TIMEOUT', async () => {
    const subject = uniqueName('slow');
    const sub = nc.subscribe(subject, { callback: () => undefined });
    try {
      const err = await rejectionOf(nc.request(subject, new Uint8Array(), { timeout: 100 }));
      // The request's timer fired: a slow responder, a passing condition.
      expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: 'TIMEOUT', retryable: true });
    } finally {
      sub.unsubscribe();
    }
  });

  it('a wrong password → AUTHORIZATION_VIOLATION', async () => {
    const err = await rejectionOf(
      connect({ servers: `127.0.0.1:${securedPort}`, user: 'fl', pass: 'wrong-pass', reconnect: false }),
    );
    // The server refused the credential.
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'authentication', code: 'AUTHORIZATION_VIOLATION', retryable: false });
    expect(JSON.stringify(env)).not.toContain('wrong-pass');
  });

  it('connection refused → the socket code under CONNECTION_REFUSED', async () => {
    const err = await rejectionOf(connect({ servers: `127.0.0.1:${await freePort()}`, reconnect: false }));
    // nats.js keeps Node's error in chainedError: ECONNREFUSED, as for every driver.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'messaging',
      retryable: true,
    });
  });

  it('publishing to an empty subject → BAD_SUBJECT', async () => {
    const err = await rejectionOf((async () => nc.publish('', new Uint8Array()))());
    // The call itself is malformed.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'validation',
      code: 'BAD_SUBJECT',
      retryable: false,
    });
  });
});
