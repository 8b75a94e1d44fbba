import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { closedPort, rejectionOf, uniqueName } from './closed-port.js';
import { provokeDeadlock } from './provoke-deadlock.js';

// Real MariaDB on this machine (root, empty password). A missing server fails this suite.
const config = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' };
const table = uniqueName('my');
const ctx = { system: 'mariadb' } as const;

describe('MariaDB errors mysql2 really throws', () => {
  let admin: mysql.Connection;

  beforeAll(async () => {
    admin = await mysql.createConnection(config);
    await admin.query(`CREATE TABLE ${table} (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB`);
    await admin.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  afterAll(async () => {
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.end();
  });

  it('deadlock between two connections → 1213 transient, retry_after 0', async () => {
    const a = await mysql.createConnection(config);
    const b = await mysql.createConnection(config);
    try {
      const reason = await provokeDeadlock(a, b, table, 'START TRANSACTION');
      const env = classifyError(reason, ctx);
      expect(env).toMatchObject({
        class: 'transient',
        code: '1213',
        source: 'db',
        retryable: true,
        retry_after: 0,
      });
      expect(env.raw).toMatchObject({ code: 'ER_LOCK_DEADLOCK', errno: 1213, sqlState: '40001' });
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('duplicate entry → 1062 validation (no ctx needed)', async () => {
    const err = await rejectionOf(admin.query(`INSERT INTO ${table} VALUES (1, 0)`));
    const env = classifyError(err);
    expect(env).toMatchObject({ class: 'validation', code: '1062', source: 'db', retryable: false });
    expect(env.raw).toMatchObject({ code: 'ER_DUP_ENTRY', sqlState: '23000' });
  });

  it('access denied for a user that does not exist → 1045 authentication, password not leaked', async () => {
    const err = await rejectionOf(
      mysql.createConnection({ ...config, user: 'fl_h2_nobody', password: 'not-the-password' }),
    );
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'authentication', code: '1045', retryable: false });
    expect(JSON.stringify(env)).not.toContain('not-the-password');
  });

  it('connection refused on a closed port → ECONNREFUSED transient, source db', async () => {
    const err = await rejectionOf(mysql.createConnection({ ...config, port: await closedPort() }));
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'db' });
  });
});
