import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { closedPort, rejectionOf, uniqueName } from './closed-port.js';
import { provokeDeadlock } from './provoke-deadlock.js';

// Real PostgreSQL on this machine (trust auth). A missing server fails this suite: no skip.
const config = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const table = uniqueName('pg');
const ctx = { system: 'postgresql' } as const;

async function connect(overrides: Partial<pg.ClientConfig> = {}): Promise<pg.Client> {
  const client = new pg.Client({ ...config, ...overrides });
  await client.connect();
  return client;
}

describe('PostgreSQL errors the pg driver really throws', () => {
  let admin: pg.Client;

  beforeAll(async () => {
    admin = await connect();
    await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL)`);
    await admin.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  afterAll(async () => {
    await admin.query(`DROP TABLE IF EXISTS ${table}`);
    await admin.end();
  });

  it('deadlock between two connections → 40P01 transient, retry_after 0', async () => {
    const a = await connect();
    const b = await connect();
    try {
      const reason = await provokeDeadlock(a, b, table, 'BEGIN');
      const env = classifyError(reason, ctx);
      expect(env).toMatchObject({
        class: 'transient',
        code: '40P01',
        source: 'db',
        retryable: true,
        retry_after: 0,
      });
      expect(env.message).toContain('deadlock detected');
    } finally {
      await a.end();
      await b.end();
    }
  });

  it('serialization failure under SERIALIZABLE → 40001 transient, retry_after 0', async () => {
    const a = await connect();
    const b = await connect();
    try {
      await a.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      await a.query(`SELECT v FROM ${table} WHERE id = 1`);
      await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`); // commits on its own
      const err = await rejectionOf(a.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`));
      const env = classifyError(err, ctx);
      expect(env).toMatchObject({ class: 'transient', code: '40001', retryable: true, retry_after: 0 });
      expect(env.message).toContain('could not serialize access');
    } finally {
      await a.query('ROLLBACK').catch(() => undefined);
      await a.end();
      await b.end();
    }
  });

  it('unique violation → 23505 validation with the constraint in raw (no ctx needed)', async () => {
    const err = await rejectionOf(admin.query(`INSERT INTO ${table} VALUES (1, 0)`));
    const env = classifyError(err);
    expect(env).toMatchObject({
      class: 'validation',
      code: '23505',
      source: 'db',
      retryable: false,
      retry_after: null,
    });
    expect(env.raw).toMatchObject({ constraint: `${table}_pkey`, severity: 'ERROR' });
  });

  it('a role that does not exist → 28000 authentication (trust auth never asks for a password)', async () => {
    const err = await rejectionOf(connect({ user: 'fl_h2_no_such_role', password: 'wrong-password' }));
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'authentication', code: '28000', retryable: false });
    expect(JSON.stringify(env)).not.toContain('wrong-password');
  });

  it('a database that does not exist → 3D000 permanent', async () => {
    const err = await rejectionOf(connect({ database: 'fl_h2_no_such_db' }));
    expect(classifyError(err, ctx)).toMatchObject({ class: 'permanent', code: '3D000', retryable: false });
  });

  it('connection refused on a closed port → ECONNREFUSED transient, source db', async () => {
    const err = await rejectionOf(connect({ port: await closedPort() }));
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'db' });
  });
});
