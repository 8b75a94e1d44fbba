import type { ErrorCase, Expected } from '../corpus-case.js';
import { mysqlServerError, pgDatabaseError } from './wire-errors.js';

const PG =
  'pg-protocol 1.16.1 dist/parser.js parseErrorMessage; SQLSTATE table https://www.postgresql.org/docs/current/errcodes-appendix.html';
const PG_RETRY =
  'PostgreSQL docs, https://www.postgresql.org/docs/current/mvcc-serialization-failure-handling.html';
const MY = 'mysql2 3.24.6 lib/packets/packet.js asError + lib/commands/command.js (err.sql)';
const MY_REF =
  'MySQL 8.4 server error reference, https://dev.mysql.com/doc/mysql-errors/8.4/en/server-error-reference.html';

const pgCase = (
  id: string,
  code: string,
  message: string,
  expected: Expected,
  extra: Record<string, string> = {},
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `pg-${id}`,
  origin: `${PG}; SQLSTATE ${code}`,
  build: () => pgDatabaseError({ S: 'ERROR', V: 'ERROR', C: code, M: message, ...extra }),
  expected,
  ...opts,
});

const myCase = (
  id: string,
  errno: number,
  sqlState: string,
  message: string,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `mysql-${id}`,
  origin: `${MY}; ${MY_REF} (${errno})`,
  build: () => mysqlServerError(errno, sqlState, message, 'UPDATE h6_orders SET qty = qty - 1 WHERE id = ?'),
  expected,
  ...opts,
});

const NO = { retryable: false, retry_after: null } as const;

/** PostgreSQL DatabaseError (SQLSTATE in `code`) and MySQL/MariaDB server errors (errno, symbolic code, sqlState). */
export const postgresMysqlCases: ErrorCase[] = [
  pgCase(
    'serialization-failure',
    '40001',
    'could not serialize access due to read/write dependencies among transactions',
    { class: 'transient', code: '40001', retryable: true, retry_after: 0 },
    {
      D: 'Reason code: Canceled on identification as a pivot, during commit attempt.',
      H: 'The transaction might succeed if retried.',
      F: 'predicate.c',
      L: '4860',
      R: 'OnConflict_CheckForSerializationFailure',
    },
    { origin: `${PG}; ${PG_RETRY}` },
  ),
  pgCase(
    'deadlock-detected',
    '40P01',
    'deadlock detected',
    { class: 'transient', code: '40P01', retryable: true, retry_after: 0 },
    {
      D: 'Process 4242 waits for ShareLock on transaction 771; blocked by process 4243.',
      H: 'See server log for query details.',
      F: 'deadlock.c',
      L: '1148',
      R: 'DeadLockReport',
    },
    { ctx: { system: 'postgresql' } },
  ),
  pgCase(
    'unique-violation',
    '23505',
    'duplicate key value violates unique constraint "h6_orders_pkey"',
    { class: 'validation', code: '23505', ...NO },
    {
      D: 'Key (id)=(42) already exists.',
      s: 'public',
      t: 'h6_orders',
      n: 'h6_orders_pkey',
      F: 'nbtinsert.c',
      L: '666',
      R: '_bt_check_unique',
    },
  ),
  pgCase(
    'foreign-key-violation',
    '23503',
    'insert or update on table "h6_items" violates foreign key constraint "h6_items_order_fkey"',
    { class: 'validation', code: '23503', ...NO },
    { D: 'Key (order_id)=(9) is not present in table "h6_orders".', t: 'h6_items', n: 'h6_items_order_fkey' },
  ),
  pgCase(
    'not-null-violation',
    '23502',
    'null value in column "email" of relation "users" violates not-null constraint',
    {
      class: 'validation',
      code: '23502',
      ...NO,
    },
  ),
  pgCase(
    'check-violation',
    '23514',
    'new row for relation "h6_orders" violates check constraint "qty_positive"',
    {
      class: 'validation',
      code: '23514',
      ...NO,
    },
  ),
  pgCase('invalid-text-representation', '22P02', 'invalid input syntax for type uuid: "abc"', {
    class: 'validation',
    code: '22P02',
    ...NO,
  }),
  pgCase('string-data-right-truncation', '22001', 'value too long for type character varying(10)', {
    class: 'validation',
    code: '22001',
    ...NO,
  }),
  pgCase(
    'invalid-password',
    '28P01',
    'password authentication failed for user "app"',
    { class: 'authentication', code: '28P01', ...NO },
    { S: 'FATAL', V: 'FATAL', F: 'auth.c', L: '323', R: 'auth_failed' },
  ),
  pgCase(
    'invalid-authorization-specification',
    '28000',
    'no pg_hba.conf entry for host "10.0.0.9", user "app", database "orders", no encryption',
    { class: 'authentication', code: '28000', ...NO },
    { S: 'FATAL', V: 'FATAL' },
  ),
  pgCase('insufficient-privilege', '42501', 'permission denied for table h6_orders', {
    class: 'authentication',
    code: '42501',
    ...NO,
  }),
  pgCase(
    'admin-shutdown',
    '57P01',
    'terminating connection due to administrator command',
    { class: 'transient', code: '57P01', retryable: true },
    { S: 'FATAL', V: 'FATAL', F: 'postgres.c', L: '3289', R: 'ProcessInterrupts' },
  ),
  pgCase(
    'cannot-connect-now',
    '57P03',
    'the database system is starting up',
    { class: 'transient', code: '57P03', retryable: true },
    { S: 'FATAL', V: 'FATAL' },
  ),
  pgCase(
    'too-many-connections',
    '53300',
    'sorry, too many clients already',
    { class: 'transient', code: '53300', retryable: true },
    { S: 'FATAL', V: 'FATAL' },
    { note: 'Server capacity, not the request: back off and retry (some would call it rate_limit).' },
  ),
  pgCase('connection-failure', '08006', 'connection failure', {
    class: 'transient',
    code: '08006',
    retryable: true,
  }),
  pgCase('lock-not-available', '55P03', 'could not obtain lock on row in relation "h6_orders"', {
    class: 'transient',
    code: '55P03',
    retryable: true,
  }),
  pgCase(
    'query-canceled-statement-timeout',
    '57014',
    'canceling statement due to statement timeout',
    { class: 'transient', code: '57014', retryable: true },
    {},
    { note: 'A statement_timeout may recur for the same heavy query; still retryable with backoff.' },
  ),
  pgCase(
    'undefined-table',
    '42P01',
    'relation "h6_missing" does not exist',
    { class: 'permanent', code: '42P01', ...NO },
    { P: '15' },
    { note: 'The schema is not what the code expects: retrying cannot help; replan/deploy.' },
  ),
  pgCase(
    'invalid-catalog-name',
    '3D000',
    'database "orders_typo" does not exist',
    { class: 'permanent', code: '3D000', ...NO },
    { S: 'FATAL', V: 'FATAL' },
  ),
  pgCase(
    'read-only-sql-transaction-hot-standby',
    '25006',
    'cannot execute UPDATE in a read-only transaction',
    { class: 'transient', code: '25006', retryable: true },
    {},
    {
      note: 'Seen during failover when the pool still points at the old primary (now a standby): retry after reconnect.',
    },
  ),
  myCase(
    'deadlock-1213',
    1213,
    '40001',
    'Deadlock found when trying to get lock; try restarting transaction',
    {
      class: 'transient',
      code: '1213',
      retryable: true,
      retry_after: 0,
    },
  ),
  myCase(
    'lock-wait-timeout-1205',
    1205,
    'HY000',
    'Lock wait timeout exceeded; try restarting transaction',
    { class: 'transient', code: '1205', retryable: true, retry_after: null },
    {
      ctx: { system: 'mysql' },
      note: 'MySQL 1205 is a lock-wait timeout (back off), unlike SQL Server 1205 (deadlock victim, replay now).',
    },
  ),
  myCase(
    'duplicate-entry-1062',
    1062,
    '23000',
    "Duplicate entry 'a@b.c' for key 'users.email'",
    { class: 'validation', code: '1062', ...NO },
    { ctx: { system: 'mariadb' } },
  ),
  myCase('fk-child-1452', 1452, '23000', 'Cannot add or update a child row: a foreign key constraint fails', {
    class: 'validation',
    code: '1452',
    ...NO,
  }),
  myCase('bad-null-1048', 1048, '23000', "Column 'email' cannot be null", {
    class: 'validation',
    code: '1048',
    ...NO,
  }),
  myCase('data-too-long-1406', 1406, '22001', "Data too long for column 'name' at row 1", {
    class: 'validation',
    code: '1406',
    ...NO,
  }),
  myCase(
    'access-denied-1045',
    1045,
    '28000',
    "Access denied for user 'app'@'10.0.0.7' (using password: YES)",
    {
      class: 'authentication',
      code: '1045',
      ...NO,
    },
  ),
  myCase(
    'table-access-denied-1142',
    1142,
    '42000',
    "DELETE command denied to user 'ro'@'%' for table `shop`.`orders`",
    {
      class: 'authentication',
      code: '1142',
      ...NO,
    },
  ),
  myCase('too-many-connections-1040', 1040, '08004', 'Too many connections', {
    class: 'transient',
    code: '1040',
    retryable: true,
  }),
  myCase('server-shutdown-1053', 1053, '08S01', 'Server shutdown in progress', {
    class: 'transient',
    code: '1053',
    retryable: true,
  }),
  myCase(
    'read-only-1290',
    1290,
    'HY000',
    'The MySQL server is running with the --read-only option so it cannot execute this statement',
    { class: 'transient', code: '1290', retryable: true },
    {
      origin: `${MY}; ${MY_REF} (1290); Aurora failover docs https://docs.aws.amazon.com/AmazonRDS/latest/AuroraUserGuide/Concepts.AuroraHighAvailability.html`,
      note: 'During an Aurora/RDS failover the old writer turns read-only; reconnecting reaches the new writer.',
    },
  ),
  myCase('no-such-table-1146', 1146, '42S02', "Table 'shop.h6_missing' doesn't exist", {
    class: 'permanent',
    code: '1146',
    ...NO,
  }),
  myCase(
    'parse-error-1064',
    1064,
    '42000',
    "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'FORM orders' at line 1",
    { class: 'validation', code: '1064', ...NO },
    { note: 'The statement as written is malformed: repair, never retry. (permanent is defensible.)' },
  ),
  myCase(
    'mariadb-connection-killed-1927',
    1927,
    '70100',
    'Connection was killed',
    { class: 'transient', code: '1927', retryable: true },
    {
      ctx: { system: 'mariadb' },
      origin: `${MY}; MariaDB error codes https://mariadb.com/kb/en/mariadb-error-code-reference/ (1927 ER_CONNECTION_KILLED)`,
    },
  ),
  myCase(
    'max-execution-time-3024',
    3024,
    'HY000',
    'Query execution was interrupted, maximum statement execution time exceeded',
    {
      class: 'transient',
      code: '3024',
      retryable: true,
    },
  ),
  {
    id: 'mysql-protocol-connection-lost',
    origin: 'mysql2 3.24.6 lib/base/connection.js stream close handler (PROTOCOL_CONNECTION_LOST, fatal)',
    build: () =>
      Object.assign(new Error('Connection lost: The server closed the connection.'), {
        fatal: true,
        code: 'PROTOCOL_CONNECTION_LOST',
      }),
    ctx: { system: 'mysql' },
    expected: { class: 'transient', code: 'PROTOCOL_CONNECTION_LOST', retryable: true },
  },
  {
    id: 'mysql-connect-etimedout',
    origin:
      'mysql2 3.24.6 lib/base/connection.js _handleTimeoutError (errorno/code ETIMEDOUT, syscall connect, fatal)',
    build: () =>
      Object.assign(new Error('connect ETIMEDOUT'), {
        errorno: 'ETIMEDOUT',
        code: 'ETIMEDOUT',
        syscall: 'connect',
        fatal: true,
      }),
    expected: { class: 'transient', code: 'ETIMEDOUT', retryable: true },
  },
  {
    id: 'mysql-protocol-sequence-timeout',
    origin: 'mysql2 3.24.6 lib/commands/query.js _handleTimeoutError (Query inactivity timeout)',
    build: () =>
      Object.assign(new Error('Query inactivity timeout'), {
        errorno: 'PROTOCOL_SEQUENCE_TIMEOUT',
        code: 'PROTOCOL_SEQUENCE_TIMEOUT',
        syscall: 'query',
        fatal: true,
      }),
    expected: { class: 'transient', code: 'PROTOCOL_SEQUENCE_TIMEOUT', retryable: true },
  },
];
