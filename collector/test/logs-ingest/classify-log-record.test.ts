import { describe, expect, it } from 'vitest';
import { classifyLogRecord } from '../../src/logs-ingest/classify-log-record.js';
import type { LogRow } from '../../src/logs-ingest/log-row.js';
import { severityNumberFromName } from '../../src/logs-ingest/severity-number.js';
import { showsLoggedFailure } from '../../src/logs-ingest/shows-logged-failure.js';
import { systemOfExceptionType } from '../../src/logs-ingest/system-of-exception-type.js';

function row(severity: number, attrs: Record<string, string>, overrides: Partial<LogRow> = {}): LogRow {
  return {
    Timestamp: '1796000000.000000000',
    TraceId: '',
    SpanId: '',
    TraceFlags: 0,
    SeverityText: '',
    SeverityNumber: severity,
    ServiceName: 'svc',
    Body: 'something happened',
    ResourceSchemaUrl: '',
    ResourceAttributes: {},
    ScopeSchemaUrl: '',
    ScopeName: 'app',
    ScopeVersion: '',
    ScopeAttributes: {},
    LogAttributes: attrs,
    EventName: '',
    ...overrides,
  };
}

describe('which records show a failure', () => {
  it.each([
    ['an exception at any severity', 13, '', { 'exception.type': 'TimeoutError' }, true],
    ['an exception message alone', 9, '', { 'exception.message': 'boom' }, true],
    ['ERROR with error.type', 17, '', { 'error.type': 'ECONNRESET' }, true],
    ['FATAL with a failing HTTP status', 21, '', { 'http.response.status_code': '503' }, true],
    ['ERROR with a gRPC status other than OK', 17, '', { 'rpc.grpc.status_code': '14' }, true],
    ['ERROR with a database response code', 18, '', { 'db.response.status_code': '40001' }, true],
    ['ERROR text with no number and an error.type', 0, 'Error', { 'error.type': '500' }, true],
    ['ERROR with nothing that names a failed operation', 17, '', { 'user.id': '7' }, false],
    ['WARN with error.type', 13, '', { 'error.type': 'ECONNRESET' }, false],
    ['INFO with a 200', 9, '', { 'http.response.status_code': '200' }, false],
    ['unspecified severity, WARN text, error.type', 0, 'warning', { 'error.type': 'x' }, false],
  ])('%s: %s', (_, severity, text, attrs, shows) => {
    expect(showsLoggedFailure(severity as number, text as string, attrs as Record<string, string>)).toBe(
      shows,
    );
  });
});

describe('classifyLogRecord', () => {
  it('writes the envelope the span classifier builds, with the system the exception class names', () => {
    const r = row(17, {
      'exception.type': 'org.postgresql.util.PSQLException',
      'exception.message': 'ERROR: deadlock detected',
    });
    expect(classifyLogRecord(r)).toBe(true);
    expect(r.LogAttributes).toMatchObject({
      'faultline.class': 'transient',
      'faultline.source': 'db',
      'faultline.code': '40P01',
      'faultline.retryable': 'true',
      'faultline.classified_by': 'collector',
    });
    // The hint is not stored: the record's own attributes stay as sent.
    expect(r.LogAttributes['db.system.name']).toBeUndefined();
  });

  it("classifies with the explained span's attributes, leaving the span's own envelope out", () => {
    const r = row(17, { 'exception.type': 'UniqueViolation', 'exception.message': 'duplicate key value' });
    const span = { 'db.system': 'postgresql', 'faultline.class': 'permanent', 'faultline.code': 'Error' };
    expect(classifyLogRecord(r, span)).toBe(true);
    expect(r.LogAttributes).toMatchObject({ 'faultline.class': 'validation', 'faultline.code': '23505' });
  });

  it('leaves a record that is no failure untouched, and keeps an envelope the preload wrote', () => {
    const info = row(9, { 'http.response.status_code': '200' });
    expect(classifyLogRecord(info)).toBe(false);
    expect(info.LogAttributes).toEqual({ 'http.response.status_code': '200' });
    const preload = row(17, {
      'faultline.class': 'rate_limit',
      'faultline.code': '429',
      'faultline.correlation_id': 'wf-1',
      'exception.type': 'HttpError',
    });
    expect(classifyLogRecord(preload)).toBe(true);
    expect(preload.LogAttributes['faultline.code']).toBe('429');
    expect(preload.LogAttributes['faultline.classified_by']).toBeUndefined();
  });
});

describe('names', () => {
  it.each([
    ['SEVERITY_NUMBER_UNSPECIFIED', 0],
    ['SEVERITY_NUMBER_TRACE', 1],
    ['SEVERITY_NUMBER_INFO', 9],
    ['SEVERITY_NUMBER_WARN4', 16],
    ['SEVERITY_NUMBER_ERROR', 17],
    ['SEVERITY_NUMBER_FATAL4', 24],
    ['SEVERITY_NUMBER_LOUD', undefined],
    ['ERROR', undefined],
  ])('severity %s is %s', (name, n) => expect(severityNumberFromName(name)).toBe(n));

  it.each([
    ['org.postgresql.util.PSQLException', 'postgresql'],
    ['psycopg2.errors.DeadlockDetected', 'postgresql'],
    ['*pgconn.PgError', 'postgresql'],
    ['Npgsql.PostgresException', 'postgresql'],
    ['com.mysql.cj.jdbc.exceptions.MySQLTransactionRollbackException', 'mysql'],
    ['Microsoft.Data.SqlClient.SqlException', 'microsoft.sql_server'],
    ['com.microsoft.sqlserver.jdbc.SQLServerException', 'microsoft.sql_server'],
    ['java.sql.SQLException', undefined],
    ['UniqueViolation', undefined],
    ['', undefined],
  ])('the exception class %s names %s', (type, system) => expect(systemOfExceptionType(type)).toBe(system));
});
