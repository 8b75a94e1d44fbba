import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, uniqueName } from './helpers.js';

// mysql (v1, mysqljs/mysql) against the real MariaDB on 127.0.0.1:3306 (root, no password).
// Server errors carry `errno`, the symbolic `code` and `sqlState`; client errors a code only.
// Expectations follow MariaDB's error reference (1062 ER_DUP_ENTRY, 1213 ER_LOCK_DEADLOCK…).
type Callback<T> = (err: Error | null, value: T) => void;
/** The slice of mysql's API used here (the package ships no types; @types/mysql is not installed). */
declare namespace mysql {
  type ConnectionConfig = Record<string, unknown>;
  type QueryOptions = { sql: string; timeout?: number };
  interface Connection {
    connect(cb: (err: Error | null) => void): void;
    query(options: string | QueryOptions, cb: Callback<unknown>): void;
    end(cb: () => void): void;
    destroy(): void;
    on(event: 'error', listener: (err: Error) => void): void;
  }
  interface PoolConnection {
    release(): void;
  }
  interface Pool {
    getConnection(cb: Callback<PoolConnection | undefined>): void;
    end(cb: () => void): void;
  }
}
const mysql = createRequire(import.meta.url)('mysql') as {
  createConnection(config: mysql.ConnectionConfig): mysql.Connection;
  createPool(config: mysql.ConnectionConfig): mysql.Pool;
};

const ctx = { system: 'mysql' } as const;
const table = uniqueName('my');
const config = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' };

function open(overrides: Partial<mysql.ConnectionConfig> = {}): mysql.Connection {
  const conn = mysql.createConnection({ ...config, ...overrides });
  conn.on('error', () => undefined);
  return conn;
}
const connect = (c: mysql.Connection) =>
  new Promise<void>((resolve, reject) => c.connect((e) => (e ? reject(e) : resolve())));
const query = (c: mysql.Connection, options: string | mysql.QueryOptions) =>
  new Promise<unknown>((resolve, reject) => c.query(options, (e, r) => (e ? reject(e) : resolve(r))));
const end = (c: mysql.Connection) => new Promise<void>((resolve) => c.end(() => resolve()));

describe('mysql (v1) errors, real MariaDB', () => {
  let conn: mysql.Connection;

  beforeAll(async () => {
    conn = open();
    await connect(conn);
    await query(conn, `CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL) ENGINE=InnoDB`);
    await query(conn, `INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  afterAll(async () => {
    await query(conn, `DROP TABLE IF EXISTS ${table}`);
    await end(conn);
  });

  it('duplicate key → 1062', async () => {
    const err = await rejectionOf(query(conn, `INSERT INTO ${table} VALUES (1, 0)`));
    // ER_DUP_ENTRY: the row must change.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: '1062', retryable: false });
  });

  it('undefined table → 1146', async () => {
    const err = await rejectionOf(query(conn, 'SELECT * FROM fl_lib_no_such_table'));
    // ER_NO_SUCH_TABLE: the schema is not what the statement assumes (existing rule: permanent).
    expect(classifyError(err, ctx)).toMatchObject({ class: 'permanent', code: '1146' });
  });

  it('deadlock → 1213, replay at once', async () => {
    const a = open();
    const b = open();
    await connect(a);
    await connect(b);
    try {
      await query(a, 'BEGIN');
      await query(b, 'BEGIN');
      await query(a, `UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      await query(b, `UPDATE ${table} SET v = v + 1 WHERE id = 2`);
      const results = await Promise.allSettled([
        query(a, `UPDATE ${table} SET v = v + 1 WHERE id = 2`),
        query(b, `UPDATE ${table} SET v = v + 1 WHERE id = 1`),
      ]);
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(failed).toHaveLength(1);
      // InnoDB rolled the victim's transaction back: "try restarting transaction".
      expect(classifyError(failed[0]?.reason, ctx)).toMatchObject({
        class: 'transient',
        code: '1213',
        retryable: true,
        retry_after: 0,
      });
    } finally {
      await query(a, 'ROLLBACK').catch(() => undefined);
      await query(b, 'ROLLBACK').catch(() => undefined);
      await end(a);
      await end(b);
    }
  });

  it('wrong user/password → 1045', async () => {
    const bad = open({ user: uniqueName('u').slice(0, 30), password: 'wrong-password' });
    const err = await rejectionOf(connect(bad));
    // ER_ACCESS_DENIED_ERROR (1045): the login is refused. MariaDB answers 1698
    // (ER_ACCESS_DENIED_NO_PASSWORD_ERROR) instead while other suites hold root sessions open:
    // the same refusal, so the code is whichever the server sent, the class the same.
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'authentication', retryable: false });
    expect(env.code).toBe(String((err as { errno?: number }).errno));
    expect(['1045', '1698']).toContain(env.code);
    expect(JSON.stringify(env)).not.toContain('wrong-password');
  });

  it('query timeout → PROTOCOL_SEQUENCE_TIMEOUT', async () => {
    const c = open();
    await connect(c);
    try {
      const err = await rejectionOf(query(c, { sql: 'SELECT SLEEP(1)', timeout: 100 }));
      // The client's own timer: the server was slow, a later attempt may finish.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'PROTOCOL_SEQUENCE_TIMEOUT',
        retryable: true,
      });
    } finally {
      c.destroy();
    }
  });

  it('connection refused → ECONNREFUSED under the db source', async () => {
    const err = await rejectionOf(connect(open({ port: await freePort() })));
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'db',
      retryable: true,
    });
  });

  it('a pool whose wait queue is full → POOL_ENQUEUELIMIT', async () => {
    const pool = mysql.createPool({ ...config, connectionLimit: 1, queueLimit: 1 });
    const held = await new Promise<mysql.PoolConnection>((resolve, reject) =>
      pool.getConnection((e, c) => (e || !c ? reject(e) : resolve(c))),
    );
    const waiting = new Promise<void>((resolve) =>
      pool.getConnection((_e, c) => {
        c?.release();
        resolve();
      }),
    );
    try {
      const err = await rejectionOf(
        new Promise((resolve, reject) => pool.getConnection((e, c) => (e ? reject(e) : resolve(c)))),
      );
      // Every connection is busy and the queue is full: connections come back, wait and retry.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'POOL_ENQUEUELIMIT',
        source: 'db',
      });
    } finally {
      held.release();
      await waiting;
      await new Promise<void>((resolve) => pool.end(() => resolve()));
    }
  });
});
