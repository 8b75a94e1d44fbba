import { parseError } from '@clickhouse/client';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** The official client's parser over the server's exception text, as on a failed request. */
function clickhouse(code: number, type: string, text: string): Error {
  return parseError(`Code: ${code}. DB::Exception: ${text}. (${type}) (version 26.1.2.11 (official build))`);
}

/** node-oracledb: errorNum plus code "ORA-NNNNN", message prefixed with the code. */
function oracle(errorNum: number, text: string): Error {
  const code = `ORA-${String(errorNum).padStart(5, '0')}`;
  return Object.assign(new Error(`${code}: ${text}`), { errorNum, code, offset: 0 });
}

/** cassandra-driver ResponseError: name from the constructor, protocol code, an `info` string. */
function cassandra(code: number, message: string): Error {
  return Object.assign(new Error(message), {
    name: 'ResponseError',
    code,
    info: 'Represents an error message from the server',
  });
}

describe('classifyError: ClickHouse, Oracle, Cassandra, PostgREST, SMTP, ORMs', () => {
  it.each<[number, string, string, ErrorClass]>([
    [60, 'UNKNOWN_TABLE', "Table default.x doesn't exist", 'permanent'],
    [62, 'SYNTAX_ERROR', 'Syntax error: failed at position 8 (FORM)', 'validation'], // type misparsed as FORM
    [516, 'AUTHENTICATION_FAILED', 'default: Authentication failed', 'authentication'],
    [241, 'MEMORY_LIMIT_EXCEEDED', 'Memory limit (total) exceeded', 'transient'],
    [252, 'TOO_MANY_PARTS', 'Too many parts (3001)', 'transient'],
  ])('ClickHouse %i %s → %s', (code, type, text, cls) => {
    expect(classifyError(clickhouse(code, type, text))).toMatchObject({
      class: cls,
      code: String(code),
      source: 'db',
    });
  });

  it.each<[number, ErrorClass, number | null]>([
    [60, 'transient', 0],
    [8177, 'transient', 0],
    [1, 'validation', null],
    [1017, 'authentication', null],
    [12541, 'transient', null],
    [942, 'permanent', null],
    [20001, 'permanent', null],
  ])('Oracle ORA-%i → %s', (num, cls, retryAfter) => {
    const env = classifyError(oracle(num, 'text'), { system: 'oracle.db' });
    expect(env).toMatchObject({
      class: cls,
      code: `ORA-${String(num).padStart(5, '0')}`,
      retry_after: retryAfter,
    });
  });

  it.each<[number, string, ErrorClass]>([
    [0x1001, 'OVERLOADED', 'transient'],
    [0x1100, 'WRITE_TIMEOUT', 'transient'],
    [0x0100, 'BAD_CREDENTIALS', 'authentication'],
    [0x2200, 'INVALID', 'validation'],
    [0x2400, 'ALREADY_EXISTS', 'permanent'],
  ])('Cassandra 0x%s → %s', (code, name, cls) => {
    expect(classifyError(cassandra(code, 'x'))).toMatchObject({ class: cls, code: name, source: 'db' });
  });

  it.each<[string, ErrorClass]>([
    ['PGRST000', 'transient'],
    ['PGRST116', 'permanent'],
    ['PGRST100', 'validation'],
    ['PGRST301', 'authentication'],
  ])('PostgREST %s → %s', (code, cls) => {
    const err = Object.assign(new Error('postgrest'), {
      name: 'PostgrestError',
      code,
      details: null,
      hint: null,
    });
    expect(classifyError(err)).toMatchObject({ class: cls, code });
  });

  it('nodemailer SMTP: reply codes and client codes', () => {
    const auth = Object.assign(new Error('Invalid login: 535 5.7.8 Authentication failed'), {
      code: 'EAUTH',
      command: 'AUTH PLAIN',
      responseCode: 535,
    });
    expect(classifyError(auth)).toMatchObject({ class: 'authentication', code: '535', source: 'smtp' });
    const busy = Object.assign(new Error('421 Try again later'), {
      code: 'EENVELOPE',
      command: 'MAIL FROM',
      responseCode: 421,
    });
    expect(classifyError(busy)).toMatchObject({ class: 'transient', code: '421' });
    const conn = Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT', command: 'CONN' });
    expect(classifyError(conn)).toMatchObject({ class: 'transient', code: 'ETIMEDOUT', source: 'smtp' });
  });

  it('ORM names decide only when no driver error is wrapped', () => {
    const acquire = Object.assign(new Error('Knex: Timeout acquiring a connection.'), {
      name: 'KnexTimeoutError',
    });
    expect(classifyError(acquire)).toMatchObject({ class: 'transient', code: 'KnexTimeoutError' });
    const pgUnique = Object.assign(new Error('duplicate'), {
      severity: 'ERROR',
      code: '23505',
      routine: '_bt_check_unique',
    });
    const wrapped = Object.assign(new Error('duplicate'), {
      name: 'UniqueViolationError',
      nativeError: pgUnique,
    });
    expect(classifyError(wrapped)).toMatchObject({ class: 'validation', code: '23505' });
  });

  it('Firebase Messaging quota-exceeded is a send-rate limit', () => {
    const err = Object.assign(new Error('Sending limit exceeded'), { code: 'messaging/quota-exceeded' });
    expect(classifyError(err)).toMatchObject({ class: 'rate_limit', retryable: true });
  });

  it('generic SDK class names are a last resort: CohereTimeoutError, RateLimitError', () => {
    const timeout = Object.assign(new Error('timed out'), { name: 'CohereTimeoutError' });
    expect(classifyError(timeout)).toMatchObject({ class: 'transient', code: 'CohereTimeoutError' });
    const limited = Object.assign(new Error('slow down'), { name: 'RateLimitError' });
    expect(classifyError(limited)).toMatchObject({ class: 'rate_limit', code: 'RateLimitError' });
  });

  it('Speakeasy SDKError: the status and headers of rawResponse decide', () => {
    const rawResponse = new Response('{"message":"Too many requests"}', {
      status: 429,
      headers: { 'retry-after': '3' },
    });
    const err = Object.assign(new Error('API error occurred'), {
      name: 'SDKError',
      statusCode: 429,
      body: '{"message":"Too many requests"}',
      rawResponse,
    });
    expect(classifyError(err)).toMatchObject({ class: 'rate_limit', retry_after: 3, source: 'sdk' });
  });
});
