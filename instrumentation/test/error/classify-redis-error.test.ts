import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

describe('classifyError: Redis (ioredis ReplyError)', () => {
  it.each<[string, string, ErrorClass]>([
    ['WRONGTYPE Operation against a key holding the wrong kind of value', 'WRONGTYPE', 'validation'],
    ['NOAUTH Authentication required.', 'NOAUTH', 'authentication'],
    ['WRONGPASS invalid username-password pair or user is disabled.', 'WRONGPASS', 'authentication'],
    ["NOPERM User app has no permissions to run the 'flushall' command", 'NOPERM', 'authentication'],
    ["OOM command not allowed when used memory > 'maxmemory'.", 'OOM', 'transient'],
    ['BUSY Redis is busy running a script.', 'BUSY', 'transient'],
    ['BUSYKEY Target key name already exists.', 'BUSYKEY', 'validation'],
    ['LOADING Redis is loading the dataset in memory', 'LOADING', 'transient'],
    [
      'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no.',
      'MASTERDOWN',
      'transient',
    ],
    ["READONLY You can't write against a read only replica.", 'READONLY', 'transient'],
    ['CLUSTERDOWN The cluster is down', 'CLUSTERDOWN', 'transient'],
    ['MOVED 3999 127.0.0.1:6381', 'MOVED', 'transient'],
    ['ASK 3999 127.0.0.1:6381', 'ASK', 'transient'],
    ['TRYAGAIN Multiple keys request during rehashing of slot', 'TRYAGAIN', 'transient'],
    ['EXECABORT Transaction discarded because of previous errors.', 'EXECABORT', 'validation'],
    ['NOSCRIPT No matching script. Please use EVAL.', 'NOSCRIPT', 'validation'],
    ["ERR wrong number of arguments for 'get' command", 'ERR', 'validation'],
    ['ERR max number of clients reached', 'ERR', 'transient'],
  ])('%s', (message, code, cls) => {
    const env = classifyError(new ReplyError(message), { system: 'redis' });
    expect(env).toMatchObject({ class: cls, code, source: 'db' });
    // Without ctx.system the ReplyError type alone is enough.
    expect(classifyError(new ReplyError(message))).toMatchObject({ class: cls, code });
  });

  it('keeps only the command name in raw, never its arguments (AUTH carries a password)', () => {
    const err = new ReplyError('WRONGPASS invalid username-password pair');
    Object.assign(err, { command: { name: 'auth', args: ['default', 'hunter2'] } });
    const env = classifyError(err);
    expect(env.raw).toEqual({ name: 'ReplyError', code: 'WRONGPASS', command: 'auth' });
    expect(JSON.stringify(env)).not.toContain('hunter2');
  });

  it('classifies MaxRetriesPerRequestError as transient', () => {
    expect(classifyError(new MaxRetriesPerRequestError(20))).toMatchObject({
      class: 'transient',
      code: 'MaxRetriesPerRequestError',
      source: 'db',
    });
  });

  it('classifies ioredis "Connection is closed." as transient', () => {
    expect(classifyError(new Error('Connection is closed.'), { system: 'redis' })).toMatchObject({
      class: 'transient',
      code: 'CONNECTION_CLOSED',
      source: 'db',
    });
  });

  it('does not read an uppercase first word as a Redis code outside Redis', () => {
    expect(classifyError(new Error('OOM while parsing'))).toMatchObject({
      class: 'permanent',
      code: 'Error',
    });
  });
});
