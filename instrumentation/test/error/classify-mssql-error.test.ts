import { ConnectionError, RequestError } from 'tedious';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** As tedious's token handler builds it: RequestError(message, 'EREQUEST') plus the token's fields. */
function serverError(number: number, message = 'boom'): RequestError {
  const err = new RequestError(message, 'EREQUEST');
  return Object.assign(err, { number, state: 1, class: 16, serverName: 'db1', procName: '', lineNumber: 1 });
}

describe('classifyError: SQL Server (tedious)', () => {
  it.each<[number, ErrorClass]>([
    [1205, 'transient'], // deadlock victim
    [1222, 'transient'], // lock request timeout
    [2627, 'validation'],
    [2601, 'validation'],
    [547, 'validation'],
    [515, 'validation'],
    [8152, 'validation'],
    [102, 'validation'],
    [208, 'permanent'], // invalid object name: schema mismatch
    [18456, 'authentication'],
    [229, 'authentication'],
    [4060, 'transient'],
    [40613, 'transient'],
    [40501, 'rate_limit'], // Azure engine throttling
    [40197, 'transient'],
    [49918, 'transient'],
    [49919, 'transient'],
    [49920, 'transient'],
    [10928, 'transient'],
    [10929, 'transient'],
    [8645, 'transient'],
    [233, 'transient'],
    [10053, 'transient'],
    [10054, 'transient'],
    [10060, 'transient'],
    [-2, 'transient'],
    [50001, 'permanent'], // user RAISERROR
  ])('number %i → %s', (number, cls) => {
    const env = classifyError(serverError(number), { system: 'microsoft.sql_server' });
    expect(env).toMatchObject({ class: cls, code: String(number), source: 'db' });
    expect(env.raw).toMatchObject({ number, code: 'EREQUEST', serverName: 'db1' });
  });

  it('reads the same number differently per dialect: 1205 deadlock (SQL Server) vs lock wait (MySQL)', () => {
    const mssql = classifyError(serverError(1205), { system: 'microsoft.sql_server' });
    const mysql = classifyError(
      Object.assign(new Error('Lock wait timeout exceeded'), {
        errno: 1205,
        code: 'ER_LOCK_WAIT_TIMEOUT',
        sqlState: 'HY000',
        sqlMessage: 'Lock wait timeout exceeded',
      }),
      { system: 'mysql' },
    );
    expect(mssql).toMatchObject({ class: 'transient', retry_after: 0 });
    expect(mysql).toMatchObject({ class: 'transient', retry_after: null });
  });

  it('recognises a tedious RequestError without ctx.system', () => {
    expect(classifyError(serverError(2627, 'Violation of PRIMARY KEY constraint'))).toMatchObject({
      class: 'validation',
      code: '2627',
      source: 'db',
    });
  });

  it.each<[string, ErrorClass]>([
    ['ELOGIN', 'authentication'],
    ['ETIMEOUT', 'transient'],
    ['ESOCKET', 'transient'],
    ['EINSTLOOKUP', 'transient'],
    ['EENCRYPT', 'permanent'],
    ['EFEDAUTH', 'authentication'],
  ])('ConnectionError %s → %s', (code, cls) => {
    const err = new ConnectionError(`Failed: ${code}`, code);
    expect(classifyError(err)).toMatchObject({ class: cls, code, source: 'db' });
  });

  it('treats an ELOGIN flagged isTransient (Azure 40613 during login) as transient', () => {
    const err = new ConnectionError('Database on server is not currently available', 'ELOGIN');
    Object.assign(err, { isTransient: true });
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'ELOGIN' });
  });

  it('classifies ESOCKET wrapping ECONNREFUSED (wrapSocketError) as a transient db failure', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1433'), { code: 'ECONNREFUSED' });
    const err = new ConnectionError('Failed to connect to localhost:1433 - connect ECONNREFUSED', 'ESOCKET', {
      cause,
    });
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'ESOCKET', source: 'db' });
  });

  it('picks the meaningful error of an AggregateError batch (547 before 3621)', () => {
    const agg = new AggregateError([
      serverError(547, 'FK conflict'),
      serverError(3621, 'The statement has been terminated.'),
    ]);
    expect(classifyError(agg, { system: 'microsoft.sql_server' })).toMatchObject({
      class: 'validation',
      code: '547',
    });
  });
});
