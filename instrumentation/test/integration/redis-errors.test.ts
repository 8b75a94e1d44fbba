import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { closedPort, rejectionOf, uniqueName } from './closed-port.js';

// Real Redis on this machine. A missing server fails this suite.
const key = uniqueName('redis');

describe('Redis errors ioredis really throws', () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.set(key, 'a string');
  });

  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
  });

  it('WRONGTYPE → validation, code WRONGTYPE, command name but not its arguments in raw', async () => {
    const err = await rejectionOf(redis.lpush(key, 'secret-value'));
    const env = classifyError(err, { system: 'redis' });
    expect(env).toMatchObject({ class: 'validation', code: 'WRONGTYPE', source: 'db', retryable: false });
    expect(env.raw).toMatchObject({ name: 'ReplyError', command: 'lpush' });
    expect(JSON.stringify(env.raw)).not.toContain('secret-value');
  });

  it('connection refused on a closed port: the error event is ECONNREFUSED, the rejection CONNECTION_CLOSED', async () => {
    const port = await closedPort();
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
    // ioredis emits the socket error as an event and rejects connect() with "Connection is closed.".
    const emitted = new Promise<unknown>((resolve) => client.once('error', resolve));
    try {
      const rejected = await rejectionOf(client.connect());
      expect(classifyError(await emitted, { system: 'redis' })).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'db',
      });
      expect(classifyError(rejected, { system: 'redis' })).toMatchObject({
        class: 'transient',
        code: 'CONNECTION_CLOSED',
        source: 'db',
        retryable: true,
      });
    } finally {
      client.disconnect();
    }
  });
});
