import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** Exactly mysql2's Packet#asError: a plain Error with code, errno, sqlState and sqlMessage. */
function serverError(errno: number, code: string, sqlState: string, message = 'boom'): Error {
  return Object.assign(new Error(message), { code, errno, sqlState, sqlMessage: message });
}

describe('classifyError: MySQL / MariaDB (mysql2)', () => {
  it.each<[number, string, string, ErrorClass]>([
    [1213, 'ER_LOCK_DEADLOCK', '40001', 'transient'],
    [1205, 'ER_LOCK_WAIT_TIMEOUT', 'HY000', 'transient'],
    [1062, 'ER_DUP_ENTRY', '23000', 'validation'],
    [1451, 'ER_ROW_IS_REFERENCED_2', '23000', 'validation'],
    [1452, 'ER_NO_REFERENCED_ROW_2', '23000', 'validation'],
    [1406, 'ER_DATA_TOO_LONG', '22001', 'validation'],
    [1064, 'ER_PARSE_ERROR', '42000', 'validation'],
    [1146, 'ER_NO_SUCH_TABLE', '42S02', 'permanent'],
    [1045, 'ER_ACCESS_DENIED_ERROR', '28000', 'authentication'],
    [1044, 'ER_DBACCESS_DENIED_ERROR', '42000', 'authentication'],
    [1142, 'ER_TABLEACCESS_DENIED_ERROR', '42000', 'authentication'],
    [1040, 'ER_CON_COUNT_ERROR', '08004', 'transient'],
    [1290, 'ER_OPTION_PREVENTS_STATEMENT', 'HY000', 'transient'],
    [1317, 'ER_QUERY_INTERRUPTED', '70100', 'transient'],
    [1927, 'ER_CONNECTION_KILLED', '70100', 'transient'],
    [1969, 'ER_STATEMENT_TIMEOUT', '70100', 'transient'],
    [3024, 'ER_QUERY_TIMEOUT', 'HY000', 'transient'],
    [1226, 'ER_USER_LIMIT_REACHED', '42000', 'rate_limit'],
    [1049, 'ER_BAD_DB_ERROR', '42000', 'permanent'],
    [1109, 'ER_UNKNOWN_TABLE', '42S02', 'validation'], // not in the table: SQLSTATE class 42 decides
    [1030, 'ER_GET_ERRNO', 'HY000', 'permanent'],
  ])('%i %s → %s', (errno, code, sqlState, cls) => {
    const env = classifyError(serverError(errno, code, sqlState), { system: 'mysql' });
    expect(env).toMatchObject({ class: cls, code: String(errno), source: 'db' });
    expect(env.raw).toMatchObject({ code, errno, sqlState });
  });

  it('gives a deadlock retry_after 0 and a lock wait timeout no fixed wait', () => {
    expect(classifyError(serverError(1213, 'ER_LOCK_DEADLOCK', '40001')).retry_after).toBe(0);
    expect(classifyError(serverError(1205, 'ER_LOCK_WAIT_TIMEOUT', 'HY000')).retry_after).toBeNull();
  });

  it('recognises mysql2 errors without ctx.system by sqlState/sqlMessage', () => {
    expect(classifyError(serverError(1062, 'ER_DUP_ENTRY', '23000'))).toMatchObject({
      class: 'validation',
      code: '1062',
    });
  });

  it.each<[string, ErrorClass]>([
    ['PROTOCOL_CONNECTION_LOST', 'transient'],
    ['PROTOCOL_SEQUENCE_TIMEOUT', 'transient'],
    ['PROTOCOL_ENQUEUE_AFTER_QUIT', 'permanent'],
  ])('client-side %s → %s (symbolic code kept)', (code, cls) => {
    // mysql2's connection.js: new Error(...), then fatal = true and code set.
    const err = Object.assign(new Error('Connection lost: The server closed the connection.'), {
      fatal: true,
      code,
    });
    expect(classifyError(err, { system: 'mariadb' })).toMatchObject({ class: cls, code, source: 'db' });
  });

  it('treats an unknown fatal server error as transient (the connection is gone)', () => {
    const err = Object.assign(serverError(1999, 'ER_UNKNOWN', 'HY000'), { fatal: true });
    expect(classifyError(err, { system: 'mysql' })).toMatchObject({ class: 'transient', code: '1999' });
  });

  it('sends socket errors under a mysql ctx to the Node table with source db', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      errno: -111,
      code: 'ECONNREFUSED',
      syscall: 'connect',
      fatal: true,
    });
    expect(classifyError(err, { system: 'mysql' })).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'db',
    });
  });

  it('treats a codeless fatal mysql2 error (closed connection) as transient', () => {
    const err = Object.assign(new Error("Can't add new command when connection is in closed state"), {
      fatal: true,
    });
    expect(classifyError(err, { system: 'mysql' })).toMatchObject({
      class: 'transient',
      code: 'FATAL_CONNECTION_ERROR',
      source: 'db',
    });
  });
});
