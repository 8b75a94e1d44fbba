import { parseError } from '@clickhouse/client';
import type { ErrorCase, Expected } from '../corpus-case.js';

const NO = { retryable: false, retry_after: null } as const;
const CH =
  '@clickhouse/client 1.23 parseError (client-common dist/error/error.js) on the server exception text';
const CH_CODES =
  'ClickHouse error codes, https://github.com/ClickHouse/ClickHouse/blob/master/src/Common/ErrorCodes.cpp';
const ORACLE = 'node-oracledb 6 lib/errors.js (errorNum, code "ORA-NNNNN", message "ORA-NNNNN: …")';
const CASSANDRA = 'cassandra-driver lib/errors.js ResponseError + lib/types responseErrorCodes';
const POSTGREST =
  'supabase-js postgrest-js src/PostgrestError.ts; codes https://docs.postgrest.org/en/stable/references/errors.html';

/** The ClickHouse server's exception text, parsed by the official client exactly as on a failed request. */
const clickhouse = (
  id: string,
  code: number,
  type: string,
  message: string,
  expected: Expected,
  note?: string,
): ErrorCase => ({
  id: `clickhouse-${id}`,
  origin: `${CH}; ${CH_CODES} (${code} ${type})`,
  build: () =>
    parseError(`Code: ${code}. DB::Exception: ${message}. (${type}) (version 26.1.2.11 (official build))`),
  ctx: { system: 'clickhouse' },
  expected,
  ...(note ? { note } : {}),
});

function oracleError(errorNum: number, text: string): Error {
  const code = `ORA-${String(errorNum).padStart(5, '0')}`;
  return Object.assign(new Error(`${code}: ${text}`), { errorNum, code, offset: 0 });
}

const oracle = (id: string, errorNum: number, text: string, expected: Expected): ErrorCase => ({
  id: `oracle-${id}`,
  origin: `${ORACLE}; https://docs.oracle.com/en/error-help/db/ora-${String(errorNum).padStart(5, '0')}/`,
  build: () => oracleError(errorNum, text),
  ctx: { system: 'oracle.db' },
  expected,
});

/** cassandra-driver: DriverError sets name from the constructor; ResponseError carries the protocol code. */
class ResponseError extends Error {
  code: number;
  info = 'Represents an error message from the server';
  constructor(code: number, message: string) {
    super(message);
    this.name = 'ResponseError';
    this.code = code;
  }
}
class NoHostAvailableError extends Error {
  innerErrors: Record<string, Error>;
  info =
    'Represents an error when a query cannot be performed because no host is available or could be reached by the driver.';
  constructor(innerErrors: Record<string, Error>) {
    super('All host(s) tried for query failed.');
    this.name = 'NoHostAvailableError';
    this.innerErrors = innerErrors;
  }
}

const cassandra = (id: string, code: number, message: string, expected: Expected): ErrorCase => ({
  id: `cassandra-${id}`,
  origin: `${CASSANDRA} (0x${code.toString(16)})`,
  build: () => new ResponseError(code, message),
  ctx: { system: 'cassandra' },
  expected,
});

/** postgrest-js PostgrestError: name set, PostgREST or PostgreSQL code. */
function postgrestError(code: string, message: string, details: string | null, hint: string | null): Error {
  return Object.assign(new Error(message), { name: 'PostgrestError', code, details, hint });
}

/** firebase-admin src/utils/error.ts: `code` is a prototype getter over errorInfo ("prefix/code"). */
class FirebaseError extends Error {
  constructor(private readonly errorInfo: { code: string; message: string }) {
    super(errorInfo.message);
  }
  get code(): string {
    return this.errorInfo.code;
  }
  toJSON(): object {
    return { code: this.code, message: this.message };
  }
}

/** ClickHouse, Oracle, Cassandra, PostgREST/Supabase, Firebase. */
export const moreDatastoreCases: ErrorCase[] = [
  clickhouse('unknown-table-60', 60, 'UNKNOWN_TABLE', "Table default.h6corpus_missing doesn't exist", {
    class: 'permanent',
    ...NO,
  }),
  clickhouse('syntax-error-62', 62, 'SYNTAX_ERROR', 'Syntax error: failed at position 8 (FORM)', {
    class: 'validation',
    ...NO,
  }),
  clickhouse(
    'authentication-failed-516',
    516,
    'AUTHENTICATION_FAILED',
    'default: Authentication failed: password is incorrect',
    {
      class: 'authentication',
      ...NO,
    },
  ),
  clickhouse(
    'partition-spread-252',
    252,
    'TOO_MANY_PARTS',
    "Too many partitions for single INSERT block (more than 100). The limit is controlled by 'max_partitions_per_insert_block' setting",
    { class: 'validation', ...NO },
    'The block itself spans too many partitions: the same block always fails, smaller ones pass.',
  ),
  clickhouse(
    'not-enough-space-243',
    243,
    'NOT_ENOUGH_SPACE',
    'Cannot reserve 1.00 MiB, not enough space',
    { class: 'transient', retryable: true },
    'A full disk clears when space is freed; the data must wait, not be dropped.',
  ),
  clickhouse(
    'cannot-parse-datetime-41',
    41,
    'CANNOT_PARSE_DATETIME',
    'Cannot read DateTime: unexpected alphabetical character: (while reading the value of key Timestamp): (at row 1)',
    { class: 'validation', ...NO },
  ),
  clickhouse(
    'access-denied-497',
    497,
    'ACCESS_DENIED',
    'reader: Not enough privileges. To execute this query, it is necessary to have the grant INSERT ON default.otel_traces',
    {
      class: 'authentication',
      ...NO,
    },
  ),
  clickhouse(
    'too-many-simultaneous-queries-202',
    202,
    'TOO_MANY_SIMULTANEOUS_QUERIES',
    'Too many simultaneous queries. Maximum: 100',
    {
      class: 'transient',
      retryable: true,
    },
    'Server concurrency limit: back off (rate_limit is defensible).',
  ),
  clickhouse(
    'timeout-exceeded-159',
    159,
    'TIMEOUT_EXCEEDED',
    'Timeout exceeded: elapsed 30.001 seconds, maximum: 30',
    {
      class: 'transient',
      retryable: true,
    },
  ),
  clickhouse(
    'too-many-parts-252',
    252,
    'TOO_MANY_PARTS',
    'Too many parts (3001 with average size of 1.02 KiB) in table default.otel_traces. Merges are processing significantly slower than inserts',
    {
      class: 'transient',
      retryable: true,
    },
    'Insert backpressure: the server asks the writer to slow down (rate_limit is defensible).',
  ),
  clickhouse(
    'memory-limit-exceeded-241',
    241,
    'MEMORY_LIMIT_EXCEEDED',
    'Memory limit (total) exceeded: would use 14.02 GiB, maximum: 14.00 GiB',
    {
      class: 'transient',
      retryable: true,
    },
    'Total (server-wide) memory pressure clears as other queries finish.',
  ),
  oracle('deadlock-60', 60, 'deadlock detected while waiting for resource', {
    class: 'transient',
    code: 'ORA-00060',
    retryable: true,
  }),
  oracle('cannot-serialize-8177', 8177, "can't serialize access for this transaction", {
    class: 'transient',
    code: 'ORA-08177',
    retryable: true,
  }),
  oracle('unique-constraint-1', 1, 'unique constraint (APP.PK_ORDERS) violated', {
    class: 'validation',
    code: 'ORA-00001',
    ...NO,
  }),
  oracle('invalid-credentials-1017', 1017, 'invalid credential or not authorized; logon denied', {
    class: 'authentication',
    code: 'ORA-01017',
    ...NO,
  }),
  oracle('no-listener-12541', 12541, 'Cannot connect. No listener at host 10.0.0.3 port 1521.', {
    class: 'transient',
    code: 'ORA-12541',
    retryable: true,
  }),
  oracle('end-of-file-3113', 3113, 'end-of-file on communication channel', {
    class: 'transient',
    code: 'ORA-03113',
    retryable: true,
  }),
  cassandra('overloaded', 0x1001, 'Server is overloaded', { class: 'transient', retryable: true }),
  cassandra('write-timeout', 0x1100, 'Operation timed out - received only 1 responses.', {
    class: 'transient',
    retryable: true,
  }),
  cassandra('unavailable', 0x1000, 'Cannot achieve consistency level QUORUM', {
    class: 'transient',
    retryable: true,
  }),
  cassandra('bad-credentials', 0x0100, 'Provided username cassandra and/or password are incorrect', {
    class: 'authentication',
    ...NO,
  }),
  cassandra(
    'unauthorized',
    0x2100,
    'User app has no MODIFY permission on <table ks.orders> or any of its parents',
    {
      class: 'authentication',
      ...NO,
    },
  ),
  cassandra('invalid', 0x2200, 'Undefined column name qty', { class: 'validation', ...NO }),
  {
    id: 'cassandra-no-host-available',
    origin: `${CASSANDRA} NoHostAvailableError (innerErrors per host)`,
    build: () =>
      new NoHostAvailableError({
        '10.0.0.11:9042': Object.assign(new Error('connect ECONNREFUSED 10.0.0.11:9042'), {
          code: 'ECONNREFUSED',
        }),
      }),
    ctx: { system: 'cassandra' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'postgrest-jwt-expired-pgrst301',
    origin: `${POSTGREST} (PGRST301: JWT expired, HTTP 401)`,
    build: () => postgrestError('PGRST301', 'JWT expired', null, null),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'postgrest-unique-23505',
    origin: `${POSTGREST} (PostgreSQL code passed through)`,
    build: () =>
      postgrestError(
        '23505',
        'duplicate key value violates unique constraint "profiles_username_key"',
        'Key (username)=(ada) already exists.',
        null,
      ),
    ctx: { system: 'postgresql' },
    expected: { class: 'validation', code: '23505', ...NO },
  },
  {
    id: 'postgrest-cannot-connect-pgrst000',
    origin: `${POSTGREST} (PGRST000: could not connect with the database, HTTP 503)`,
    build: () =>
      postgrestError('PGRST000', 'Could not connect with the database', 'connection refused', null),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'firebase-messaging-quota-exceeded',
    origin:
      'firebase-admin src/utils/error.ts FirebaseMessagingError (code getter "messaging/quota-exceeded")',
    build: () =>
      new FirebaseError({
        code: 'messaging/quota-exceeded',
        message: 'Sending limit exceeded for the message target.',
      }),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'firebase-messaging-server-unavailable',
    origin: 'firebase-admin src/utils/error.ts (messaging/server-unavailable)',
    build: () =>
      new FirebaseError({
        code: 'messaging/server-unavailable',
        message: 'The FCM server could not process the request in time.',
      }),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'firebase-auth-id-token-expired',
    origin: 'firebase-admin src/utils/error.ts FirebaseAuthError (auth/id-token-expired)',
    build: () =>
      new FirebaseError({ code: 'auth/id-token-expired', message: 'Firebase ID token has expired.' }),
    expected: { class: 'authentication', ...NO },
  },
];
