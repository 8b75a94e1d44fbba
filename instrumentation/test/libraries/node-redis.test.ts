import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, uniqueName } from './helpers.js';

// node-redis (the `redis` package) against the real Redis on 127.0.0.1:6379; a missing server
// fails the suite. node-redis leaves `name` as "Error": its classes are told apart by constructor
// (SimpleError for a server reply, TimeoutReadError, SocketTimeoutError…).
const ctx = { system: 'redis' } as const;
const key = uniqueName('redis');
const user = uniqueName('user');
type Client = ReturnType<typeof createClient>;

describe('node-redis errors, real server', () => {
  let admin: Client;

  beforeAll(async () => {
    admin = createClient({ url: 'redis://127.0.0.1:6379' });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.set(key, 'a string');
    await admin.sendCommand(['ACL', 'SETUSER', user, 'on', '>right-pass', '~*', '+get']);
  });

  afterAll(async () => {
    await admin.del(key);
    await admin.sendCommand(['ACL', 'DELUSER', user]);
    admin.destroy();
  });

  it('WRONGTYPE: LPUSH on a string key', async () => {
    const err = await rejectionOf(admin.lPush(key, 'v'));
    // The command does not fit the key's type: the request must change, a retry fails the same way.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'validation',
      code: 'WRONGTYPE',
      source: 'db',
      retryable: false,
    });
  });

  it('ERR: an unknown command', async () => {
    const err = await rejectionOf(admin.sendCommand(['FL_NO_SUCH_COMMAND']));
    // A malformed request, not a server condition.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: 'ERR', retryable: false });
  });

  it('WRONGPASS: an ACL user with the wrong password', async () => {
    const bad = createClient({
      url: `redis://${user}:wrong-pass@127.0.0.1:6379`,
      socket: { reconnectStrategy: false },
    });
    bad.on('error', () => undefined);
    const err = await rejectionOf(bad.connect());
    // The credential is refused: refresh it once, then a person.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'authentication',
      code: 'WRONGPASS',
      retryable: false,
    });
    expect(JSON.stringify(classifyError(err, ctx))).not.toContain('wrong-pass');
  });

  it('NOPERM: the user may not run SET', async () => {
    const limited = createClient({ url: `redis://${user}:right-pass@127.0.0.1:6379` });
    limited.on('error', () => undefined);
    await limited.connect();
    try {
      const err = await rejectionOf(limited.set(key, 'x'));
      // A permission the credential lacks: an authorization failure, not a retry.
      expect(classifyError(err, ctx)).toMatchObject({ class: 'authentication', code: 'NOPERM' });
    } finally {
      limited.destroy();
    }
  });

  it('connection refused on a closed port', async () => {
    const port = await freePort();
    const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    const err = await rejectionOf(client.connect());
    // Nothing listens (yet): a restart or failover brings it back; the socket code names it.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'db',
      retryable: true,
    });
  });

  it('a reply that did not come in time (TimeoutReadError) and a silent socket (SocketTimeoutError)', async () => {
    // A Lua loop keeps the server busy for 300 ms, longer than either timer.
    const busy = [
      'EVAL',
      "local s=redis.call('TIME'); local e=s[1]*1000000+s[2]+300000; while true do local n=redis.call('TIME'); if n[1]*1000000+n[2]>e then break end end return 1",
      '0',
    ];
    const reading = createClient({
      url: 'redis://127.0.0.1:6379',
      commandOptions: { timeout: 100, rejectInFlight: true },
    });
    reading.on('error', () => undefined);
    await reading.connect();
    try {
      const readErr = await rejectionOf(reading.sendCommand(busy));
      // The first script still holds the single-threaded server: wait it out (admin's PING is
      // answered once it ends), or the next client's own handshake would meet the silence.
      await admin.ping();
      // Connected just before the call: the socket timer measures only the silence of the reply.
      const quiet = createClient({
        url: 'redis://127.0.0.1:6379',
        socket: { reconnectStrategy: false, socketTimeout: 100 },
      });
      quiet.on('error', () => undefined);
      await quiet.connect();
      const socketErr = await rejectionOf(quiet.sendCommand(busy));
      if (quiet.isOpen) quiet.destroy();
      // A slow server is a passing condition: back off and try again.
      expect(classifyError(readErr, ctx)).toMatchObject({
        class: 'transient',
        code: 'TimeoutReadError',
        retryable: true,
      });
      expect(classifyError(socketErr, ctx)).toMatchObject({
        class: 'transient',
        code: 'SocketTimeoutError',
        retryable: true,
      });
    } finally {
      reading.destroy();
    }
  });

  it('a command on a client the application closed', async () => {
    const client = createClient({ url: 'redis://127.0.0.1:6379' });
    client.on('error', () => undefined);
    await client.connect();
    client.destroy();
    const err = await rejectionOf(client.get(key));
    // The application closed it: retrying the same client cannot work.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'permanent', code: 'ClientClosedError' });
  });
});
