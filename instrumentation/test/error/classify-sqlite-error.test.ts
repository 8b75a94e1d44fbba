import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** better-sqlite3's SqliteError(message, code): name 'SqliteError', extended result code name in `code`. */
function sqliteError(code: string): Error {
  return Object.assign(new Error('sqlite failed'), { name: 'SqliteError', code });
}

describe('classifyError: SQLite extended result codes', () => {
  it.each<[string, ErrorClass]>([
    ['SQLITE_CONSTRAINT_UNIQUE', 'validation'],
    ['SQLITE_CONSTRAINT_FOREIGNKEY', 'validation'],
    ['SQLITE_BUSY', 'transient'],
    ['SQLITE_BUSY_SNAPSHOT', 'transient'],
    ['SQLITE_LOCKED', 'transient'],
    ['SQLITE_READONLY', 'permanent'],
    ['SQLITE_CANTOPEN', 'permanent'],
    ['SQLITE_ERROR', 'validation'],
    ['SQLITE_AUTH', 'authentication'],
  ])('%s → %s', (code, cls) => {
    expect(classifyError(sqliteError(code))).toMatchObject({ class: cls, code, source: 'db' });
  });
});
