import type { ErrorClass } from '../types.js';
import { readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * SQLite through better-sqlite3, sqlite3, node:sqlite or libsql: the extended result code name
 * is in `code` ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_BUSY"). Code rule: that name.
 * Matched on the primary code (the part before a second underscore group).
 */

const BY_PRIMARY: Record<string, ErrorClass> = {
  SQLITE_BUSY: 'transient', // another connection holds the lock: retry after it commits
  SQLITE_LOCKED: 'transient',
  SQLITE_PROTOCOL: 'transient',
  SQLITE_IOERR: 'transient',
  SQLITE_NOMEM: 'transient',
  SQLITE_INTERRUPT: 'transient',
  SQLITE_FULL: 'transient',
  SQLITE_CONSTRAINT: 'validation',
  SQLITE_MISMATCH: 'validation',
  SQLITE_TOOBIG: 'validation',
  SQLITE_RANGE: 'validation',
  SQLITE_ERROR: 'validation', // generic: in practice syntax errors and unknown columns
  SQLITE_AUTH: 'authentication',
  SQLITE_PERM: 'authentication',
  SQLITE_READONLY: 'permanent',
  SQLITE_CANTOPEN: 'permanent',
  SQLITE_CORRUPT: 'permanent',
  SQLITE_NOTADB: 'permanent',
  SQLITE_SCHEMA: 'transient', // the schema changed under a prepared statement: prepare again
};

export function classifySqliteError(err: unknown): Verdict | null {
  const code = readString(err, 'code');
  if (code === undefined || !code.startsWith('SQLITE_')) return null;
  const second = code.indexOf('_', 7);
  const primary = second === -1 ? code : code.slice(0, second);
  const cls = BY_PRIMARY[primary] ?? 'permanent';
  return { class: cls, code, source: 'db', raw: { name: readString(err, 'name') ?? 'Error', code } };
}
