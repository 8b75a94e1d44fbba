import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';

// better-sqlite3 on a temp file: SqliteError carries the extended result code name in `code`.
// Expectations follow SQLite's "Result and Error Codes" page.
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (
  file: string,
  options?: { timeout?: number },
) => Database;
const ctx = { system: 'sqlite' } as const;

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to throw');
}

describe('better-sqlite3 errors, real database file', () => {
  let dir: string;
  let db: Database;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fl-sqlite-'));
    db = new Sqlite(join(dir, 'test.db'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
    db.prepare('INSERT INTO t VALUES (1, ?)').run('a');
  });

  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a duplicate UNIQUE value → SQLITE_CONSTRAINT_UNIQUE', () => {
    const err = thrownBy(() => db.prepare('INSERT INTO t VALUES (2, ?)').run('a'));
    // A constraint the row breaks: the row must change.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'validation',
      code: 'SQLITE_CONSTRAINT_UNIQUE',
      source: 'db',
      retryable: false,
    });
  });

  it('a duplicate primary key → SQLITE_CONSTRAINT_PRIMARYKEY', () => {
    const err = thrownBy(() => db.prepare('INSERT INTO t VALUES (1, ?)').run('b'));
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'validation',
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
  });

  it('a missing table → SQLITE_ERROR', () => {
    const err = thrownBy(() => db.prepare('SELECT * FROM no_such_table').all());
    // SQLite's generic SQL error (existing rule: validation — the statement must change).
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: 'SQLITE_ERROR' });
  });

  it('a write while another connection holds the write lock → SQLITE_BUSY', () => {
    const other = new Sqlite(join(dir, 'test.db'), { timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    try {
      const err = thrownBy(() => other.prepare('INSERT INTO t VALUES (3, ?)').run('c'));
      // "database is locked": the lock is released when the other transaction ends.
      expect(classifyError(err, ctx)).toMatchObject({
        class: 'transient',
        code: 'SQLITE_BUSY',
        retryable: true,
      });
    } finally {
      db.exec('ROLLBACK');
      other.close();
    }
  });
});
