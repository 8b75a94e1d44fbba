import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { ErrorCase } from '../corpus-case.js';

const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
const NO = { retryable: false, retry_after: null } as const;
const LOCAL = 'provoked for real against the local server';

async function pgError(sql: string, connectionString = PG_URL): Promise<unknown> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    await client.query(sql);
  } catch (err) {
    return err;
  } finally {
    await client.end().catch(() => {});
  }
  throw new Error(`expected PostgreSQL to reject: ${sql}`);
}

async function mariaError(
  run: (c: mysql.Connection) => Promise<unknown>,
  user = 'root',
  password = '',
): Promise<unknown> {
  let conn: mysql.Connection | undefined;
  try {
    conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user, password, database: 'test' });
    await run(conn);
  } catch (err) {
    return err;
  } finally {
    await conn?.end().catch(() => {});
  }
  throw new Error('expected MariaDB to reject');
}

async function redisError(run: (r: Redis) => Promise<unknown>): Promise<unknown> {
  const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await run(redis);
  } catch (err) {
    return err;
  } finally {
    redis.disconnect();
  }
  throw new Error('expected Redis to reject');
}

/** Errors the real drivers throw from the PostgreSQL, MariaDB and Redis servers on this machine. */
export const realDbCases: ErrorCase[] = [
  {
    id: 'pg-real-undefined-table',
    origin: `pg 8.23 / PostgreSQL ${LOCAL} (42P01)`,
    build: () => pgError('SELECT * FROM h6corpus_missing_table'),
    ctx: { system: 'postgresql' },
    expected: { class: 'permanent', code: '42P01', ...NO },
  },
  {
    id: 'pg-real-division-by-zero',
    origin: `pg 8.23 / PostgreSQL ${LOCAL} (22012, data exception class)`,
    build: () => pgError('SELECT 1/0'),
    expected: { class: 'validation', code: '22012', ...NO },
  },
  {
    id: 'pg-real-role-does-not-exist',
    origin: `pg 8.23 / PostgreSQL ${LOCAL} (28000 role does not exist; password in the connection string)`,
    secrets: ['h6PgConnStrPa55'],
    build: () => pgError('SELECT 1', 'postgres://h6corpus_no_role:h6PgConnStrPa55@127.0.0.1:5432/test'),
    ctx: { system: 'postgresql' },
    expected: { class: 'authentication', code: '28000', ...NO },
  },
  {
    id: 'mariadb-real-no-such-table',
    origin: `mysql2 3.24 / MariaDB ${LOCAL} (1146)`,
    build: () => mariaError((c) => c.query('SELECT * FROM h6corpus_missing_table')),
    ctx: { system: 'mariadb' },
    expected: { class: 'permanent', code: '1146', ...NO },
  },
  {
    id: 'mariadb-real-duplicate-entry',
    origin: `mysql2 3.24 / MariaDB ${LOCAL} (1062 on a TEMPORARY table)`,
    build: () =>
      mariaError(async (c) => {
        await c.query('CREATE TEMPORARY TABLE h6corpus_dup (id INT PRIMARY KEY)');
        await c.query('INSERT INTO h6corpus_dup VALUES (1), (1)');
      }),
    expected: { class: 'validation', code: '1062', ...NO },
  },
  {
    id: 'mariadb-real-access-denied',
    origin: `mysql2 3.24 / MariaDB ${LOCAL} (1045 or 1698 by server auth plugin, fatal handshake error)`,
    note: 'The errno depends on the server auth plugin (1045 ER_ACCESS_DENIED_ERROR, 1698 with unix_socket): class only.',
    secrets: ['h6MariaPa55word'],
    build: () => mariaError(async () => {}, 'h6corpus_nouser', 'h6MariaPa55word'),
    ctx: { system: 'mariadb' },
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'redis-real-wrongtype',
    origin: `ioredis 6 / Redis ${LOCAL} (WRONGTYPE)`,
    build: () =>
      redisError(async (r) => {
        await r.set('h6corpus:wrongtype', 'a string', 'EX', 30);
        await r.lpush('h6corpus:wrongtype', 'x');
      }),
    ctx: { system: 'redis' },
    expected: { class: 'validation', code: 'WRONGTYPE', ...NO },
  },
  {
    id: 'redis-real-err-not-integer',
    origin: `ioredis 6 / Redis ${LOCAL} ("ERR value is not an integer or out of range")`,
    note: 'Generic ERR prefix; the command arguments are wrong: not retryable.',
    build: () =>
      redisError(async (r) => {
        await r.set('h6corpus:notint', 'abc', 'EX', 30);
        await r.incr('h6corpus:notint');
      }),
    ctx: { system: 'redis' },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
];
