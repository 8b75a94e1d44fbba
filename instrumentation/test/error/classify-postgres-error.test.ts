import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** Built the way pg-protocol's parser does: new DatabaseError(message, length, 'error') plus fields. */
function pgError(code: string, message = 'boom', extra: Record<string, unknown> = {}): Error {
  const err = new pg.DatabaseError(message, 100, 'error');
  return Object.assign(err, { severity: 'ERROR', code, routine: 'exec_stmt', ...extra });
}

describe('classifyError: PostgreSQL SQLSTATEs', () => {
  it.each<[string, ErrorClass, number | null]>([
    ['40001', 'transient', 0], // serialization_failure
    ['40P01', 'transient', 0], // deadlock_detected
    ['40003', 'transient', null], // statement_completion_unknown
    ['40002', 'validation', null], // deferred constraint at commit
    ['23505', 'validation', null], // unique_violation
    ['23503', 'validation', null], // foreign_key_violation
    ['23502', 'validation', null], // not_null_violation
    ['23514', 'validation', null], // check_violation
    ['22001', 'validation', null], // string_data_right_truncation
    ['22P02', 'validation', null], // invalid_text_representation
    ['42601', 'validation', null], // syntax_error
    ['42P01', 'permanent', null], // undefined_table: schema mismatch, replan
    ['42703', 'permanent', null], // undefined_column
    ['42501', 'authentication', null], // insufficient_privilege
    ['28P01', 'authentication', null], // invalid_password
    ['28000', 'authentication', null], // invalid_authorization_specification
    ['08006', 'transient', null], // connection_failure
    ['08001', 'transient', null],
    ['08P01', 'permanent', null], // protocol_violation
    ['57P01', 'transient', null], // admin_shutdown
    ['57P02', 'transient', null],
    ['57P03', 'transient', null], // cannot_connect_now
    ['57014', 'transient', null], // query_canceled (statement_timeout)
    ['57P04', 'permanent', null], // database_dropped
    ['53300', 'transient', null], // too_many_connections
    ['53100', 'transient', null], // disk_full
    ['55P03', 'transient', null], // lock_not_available
    ['25006', 'transient', null], // read_only_sql_transaction
    ['25P02', 'permanent', null], // in_failed_sql_transaction
    ['3D000', 'permanent', null], // invalid_catalog_name
    ['0A000', 'permanent', null], // feature_not_supported
    ['54000', 'validation', null], // program_limit_exceeded
    ['P0001', 'permanent', null], // raise_exception
    ['XX000', 'permanent', null], // internal_error
    ['XX001', 'permanent', null], // data_corrupted
    ['58030', 'transient', null], // io_error
    ['72000', 'transient', null], // snapshot_too_old
  ])('%s → %s', (code, cls, retryAfter) => {
    const env = classifyError(pgError(code), { system: 'postgresql' });
    expect(env).toMatchObject({ class: cls, code, source: 'db', retry_after: retryAfter });
    expect(env.retryable).toBe(cls === 'transient' || cls === 'rate_limit');
  });

  it('recognises a DatabaseError without ctx.system by its severity field', () => {
    const env = classifyError(
      pgError('23505', 'duplicate key value violates unique constraint "u"', { constraint: 'u' }),
    );
    expect(env).toMatchObject({ class: 'validation', code: '23505', source: 'db' });
    expect(env.raw).toMatchObject({ code: '23505', constraint: 'u', severity: 'ERROR' });
  });

  it('keeps Node socket codes out of the SQLSTATE path even under ctx.system', () => {
    const err = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' });
    expect(classifyError(err, { system: 'postgresql' })).toMatchObject({
      class: 'transient',
      code: 'EPIPE',
      source: 'db',
    });
  });

  it('classifies a pg-wrapped error found under an ORM wrapper cause', () => {
    const wrapper = Object.assign(new Error('Validation error'), { name: 'SequelizeUniqueConstraintError' });
    Object.assign(wrapper, { parent: pgError('23505', 'duplicate key') });
    expect(classifyError(wrapper)).toMatchObject({ class: 'validation', code: '23505', source: 'db' });
  });

  it('recognises a PostgREST / supabase-js error object (code, details, hint, message)', () => {
    const err = {
      code: '23505',
      details: 'Key (email)=(a@b.c) already exists.',
      hint: null,
      message: 'duplicate key value',
    };
    expect(classifyError(err)).toMatchObject({ class: 'validation', code: '23505', source: 'db' });
  });
});
