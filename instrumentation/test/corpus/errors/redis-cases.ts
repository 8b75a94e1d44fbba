import type { ErrorCase, Expected } from '../corpus-case.js';
import { ioredisMaxRetriesError, redisReplyError } from './wire-errors.js';

const IOREDIS =
  'ioredis 6.0.0 built/resp/decoder.js SimpleError + built/DataHandler.js returnError (err.command)';
const REDIS_ERR =
  'Redis error prefixes, https://redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors';

const NO = { retryable: false, retry_after: null } as const;

const redisCase = (
  id: string,
  line: string,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `redis-${id}`,
  origin: `${IOREDIS}; ${REDIS_ERR}`,
  build: () => redisReplyError(line, { name: 'set', args: ['h6corpus:key', 'value'] }),
  expected,
  ...opts,
});

/** Redis through ioredis: the reply prefix is the code. */
export const redisCases: ErrorCase[] = [
  redisCase(
    'wrongtype',
    'WRONGTYPE Operation against a key holding the wrong kind of value',
    {
      class: 'validation',
      code: 'WRONGTYPE',
      ...NO,
    },
    { note: 'The command does not fit the data: repair the call (permanent is defensible); never retry.' },
  ),
  redisCase('noauth', 'NOAUTH Authentication required.', { class: 'authentication', code: 'NOAUTH', ...NO }),
  {
    id: 'redis-wrongpass-auth-args-redacted',
    origin: `${IOREDIS} (AUTH reply; err.command.args carries the password)`,
    secrets: ['h6-redis-Sup3rSecret'],
    build: () =>
      redisReplyError('WRONGPASS invalid username-password pair or user is disabled.', {
        name: 'auth',
        args: ['default', 'h6-redis-Sup3rSecret'],
      }),
    ctx: { system: 'redis' },
    expected: { class: 'authentication', code: 'WRONGPASS', ...NO },
  },
  redisCase('noperm', "NOPERM User app has no permissions to run the 'flushall' command", {
    class: 'authentication',
    code: 'NOPERM',
    ...NO,
  }),
  redisCase('loading', 'LOADING Redis is loading the dataset in memory', {
    class: 'transient',
    code: 'LOADING',
    retryable: true,
  }),
  redisCase(
    'busy',
    'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.',
    {
      class: 'transient',
      code: 'BUSY',
      retryable: true,
    },
  ),
  redisCase(
    'readonly',
    "READONLY You can't write against a read only replica.",
    {
      class: 'transient',
      code: 'READONLY',
      retryable: true,
    },
    { note: 'Seen right after a failover until the client reconnects to the new primary.' },
  ),
  redisCase(
    'masterdown',
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    {
      class: 'transient',
      code: 'MASTERDOWN',
      retryable: true,
    },
  ),
  redisCase('tryagain', 'TRYAGAIN Multiple keys request during rehashing of slot', {
    class: 'transient',
    code: 'TRYAGAIN',
    retryable: true,
  }),
  redisCase('clusterdown', 'CLUSTERDOWN The cluster is down', {
    class: 'transient',
    code: 'CLUSTERDOWN',
    retryable: true,
  }),
  redisCase(
    'oom',
    "OOM command not allowed when used memory > 'maxmemory'.",
    { class: 'transient', code: 'OOM', retryable: true },
    {
      note: 'Capacity on the server side; clears when keys expire or are evicted. Back off.',
    },
  ),
  {
    id: 'ioredis-connection-is-closed',
    origin:
      'ioredis 6.0.0 built/utils/index.js CONNECTION_CLOSED_ERROR_MSG ("Connection is closed.", plain Error)',
    build: () => new Error('Connection is closed.'),
    ctx: { system: 'redis' },
    expected: { class: 'transient', retryable: true },
    note: 'A plain Error with no code: only ctx.system and the message identify it.',
  },
  {
    id: 'ioredis-max-retries-per-request',
    origin: 'ioredis 6.0.0 built/errors/MaxRetriesPerRequestError.js (extends redis-errors AbortError)',
    build: () => ioredisMaxRetriesError(20),
    ctx: { system: 'redis' },
    expected: { class: 'transient', retryable: true },
  },
  redisCase(
    'err-max-clients',
    'ERR max number of clients reached',
    { class: 'transient', retryable: true },
    {
      note: 'Generic ERR prefix; the text says the server is out of connection slots: back off.',
    },
  ),
  redisCase(
    'misconf',
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled.",
    { class: 'transient', code: 'MISCONF', retryable: true },
    { note: 'A server-side condition (disk), not the request: like a 503.' },
  ),
];
