import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, silentServer, uniqueName } from './helpers.js';

// postgres.js (porsager/postgres) against the real PostgreSQL on 127.0.0.1:5432 (trust auth).
// Server errors are PostgresError with the SQLSTATE in `code`; the client's own carry a symbolic
// code (CONNECT_TIMEOUT, CONNECTION_ENDED). Expectations follow PostgreSQL's Appendix A.
const ctx = { system: 'postgresql' } as const;
const table = uniqueName('pgjs');
const options = {
  host: '127.0.0.1',
  port: 5432,
  user: 'postgres',
  database: 'test',
  onnotice: () => undefined,
};

describe('postgres.js errors, real server', () => {
  let sql: postgres.Sql;

  beforeAll(async () => {
    sql = postgres(options);
    await sql.unsafe(`CREATE TABLE ${table} (id int PRIMARY KEY, v int NOT NULL)`);
    await sql.unsafe(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`);
  });

  afterAll(async () => {
    await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
    await sql.end();
  });

  it('duplicate key → 23505', async () => {
    const err = await rejectionOf(sql.unsafe(`INSERT INTO ${table} VALUES (1, 0)`));
    // unique_violation: the row must change; the same insert fails forever.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: '23505', retryable: false });
  });

  it('undefined table → 42P01', async () => {
    const err = await rejectionOf(sql.unsafe('SELECT * FROM fl_lib_no_such_table'));
    // The schema is not what the statement assumes (the existing rule: like a 404, replan).
    expect(classifyError(err, ctx)).toMatchObject({ class: 'permanent', code: '42P01', retryable: false });
  });

  it('deadlock between two reserved connections → 40P01, replay at once', async () => {
    const a = await sql.reserve();
    const b = await sql.reserve();
    try {
      await a.unsafe('BEGIN');
      await b.unsafe('BEGIN');
      await a.unsafe(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
      await b.unsafe(`UPDATE ${table} SET v = v + 1 WHERE id = 2`);
      const results = await Promise.allSettled([
        a.unsafe(`UPDATE ${table} SET v = v + 1 WHERE id = 2`),
        b.unsafe(`UPDATE ${table} SET v = v + 1 WHERE id = 1`),
      ]);
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(failed).toHaveLength(1);
      // The server rolled the victim back; rerunning its transaction is the documented remedy.
      expect(classifyError(failed[0]?.reason, ctx)).toMatchObject({
        class: 'transient',
        code: '40P01',
        retryable: true,
        retry_after: 0,
      });
    } finally {
      await a.unsafe('ROLLBACK').catch(() => undefined);
      await b.unsafe('ROLLBACK').catch(() => undefined);
      a.release();
      b.release();
    }
  });

  it('statement timeout → 57014', async () => {
    const err = await rejectionOf(
      sql.begin(async (tx) => {
        await tx.unsafe('SET LOCAL statement_timeout = 50');
        await tx.unsafe('SELECT pg_sleep(1)');
      }),
    );
    // query_canceled by the timeout: the load, not the statement; a later attempt may finish.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'transient', code: '57014', retryable: true });
  });

  it('a role that does not exist → 28000', async () => {
    const bad = postgres({ ...options, user: uniqueName('role'), max: 1 });
    try {
      const err = await rejectionOf(bad`SELECT 1`);
      // invalid_authorization_specification: the login is refused, whatever the load.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'authentication',
        code: '28000',
        retryable: false,
      });
    } finally {
      await bad.end();
    }
  });

  it('connection refused on a closed port → ECONNREFUSED under the db source', async () => {
    const refused = postgres({ ...options, port: await freePort(), max: 1, connect_timeout: 2 });
    try {
      const err = await rejectionOf(refused`SELECT 1`);
      // Nothing listens: a restart brings it back.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'db',
        retryable: true,
      });
    } finally {
      await refused.end();
    }
  });

  it('connect_timeout against a server that never answers → CONNECT_TIMEOUT', async () => {
    const silent = await silentServer();
    const slow = postgres({ ...options, port: silent.port, max: 1, connect_timeout: 0.2 });
    try {
      const err = await rejectionOf(slow`SELECT 1`);
      // The server did not answer in time: a passing condition, like ETIMEDOUT.
      expect(classifyError(err)).toMatchObject({
        class: 'transient',
        code: 'CONNECT_TIMEOUT',
        source: 'db',
        retryable: true,
      });
    } finally {
      await slow.end({ timeout: 0 });
      await silent.close();
    }
  });

  it('a query after sql.end() → CONNECTION_ENDED', async () => {
    const ended = postgres({ ...options, max: 1 });
    await ended`SELECT 1`;
    await ended.end();
    const err = await rejectionOf(ended`SELECT 1`);
    // The application ended the pool: the same handle never works again.
    expect(classifyError(err)).toMatchObject({ class: 'permanent', code: 'CONNECTION_ENDED', source: 'db' });
  });
});
