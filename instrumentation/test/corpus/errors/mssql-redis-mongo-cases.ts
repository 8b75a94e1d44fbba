import { ConnectionError, RequestError } from 'tedious';
import type { ErrorCase, Expected } from '../corpus-case.js';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from './mongodb-errors.js';
import { ioredisMaxRetriesError, redisReplyError } from './wire-errors.js';

const TEDIOUS =
  'tedious 19.2.2 lib/token/handler.js onErrorMessage (RequestError EREQUEST + number/state/class)';
const AZURE_SQL =
  'Azure SQL transient errors, https://learn.microsoft.com/azure/azure-sql/database/troubleshoot-common-errors-issues#transient-fault-error-messages-40197-40613-and-others';
const MSSQL_REF =
  'SQL Server errors, https://learn.microsoft.com/sql/relational-databases/errors-events/database-engine-events-and-errors';
const IOREDIS =
  'ioredis 6.0.0 built/resp/decoder.js SimpleError + built/DataHandler.js returnError (err.command)';
const REDIS_ERR =
  'Redis error prefixes, https://redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors';
const MONGO = 'mongodb 6.x src/error.ts MongoServerError (errorLabels behind a Symbol, exposed by a getter)';
const MONGO_RETRY =
  'MongoDB retryable writes spec, https://github.com/mongodb/specifications/blob/master/source/retryable-writes/retryable-writes.md#determining-retryable-errors';

const NO = { retryable: false, retry_after: null } as const;

/** RequestError exactly as tedious's token handler builds it from a server ERROR token. */
function tediousRequestError(number: number, message: string, state = 1, cls = 16): RequestError {
  const error = new RequestError(message, 'EREQUEST');
  Object.assign(error, { number, state, class: cls, serverName: 'sql-prod-01', procName: '', lineNumber: 1 });
  return error;
}

const msCase = (
  id: string,
  number: number,
  message: string,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `mssql-${id}`,
  origin: `${TEDIOUS}; ${MSSQL_REF} (${number})`,
  build: () => tediousRequestError(number, message),
  expected,
  ...opts,
});

const redisCase = (
  id: string,
  line: string,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `redis-${id}`,
  origin: `${IOREDIS}; ${REDIS_ERR}`,
  build: () => redisReplyError(line, { name: 'set', args: ['h6corpus:key', 'value'] }),
  expected,
  ...opts,
});

const mongoCase = (
  id: string,
  doc: Record<string, unknown>,
  expected: Expected,
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `mongo-${id}`,
  origin: `${MONGO}; codes https://www.mongodb.com/docs/manual/reference/error-codes/`,
  build: () => new MongoServerError({ ok: 0, ...doc }),
  expected,
  ...opts,
});

/** SQL Server (tedious), Redis (ioredis ReplyError), MongoDB (server and driver errors). */
export const mssqlRedisMongoCases: ErrorCase[] = [
  msCase(
    'deadlock-victim-1205',
    1205,
    'Transaction (Process ID 52) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
    { class: 'transient', code: '1205', retryable: true, retry_after: 0 },
    {
      ctx: { system: 'microsoft.sql_server' },
      origin: `${TEDIOUS}; https://learn.microsoft.com/sql/relational-databases/errors-events/mssqlserver-1205-database-engine-error`,
    },
  ),
  msCase(
    'deadlock-victim-1205-no-ctx',
    1205,
    'Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
    { class: 'transient', code: '1205', retryable: true, retry_after: 0 },
    {
      note: 'No ctx.system: the tedious RequestError shape (number, state, class, serverName) identifies SQL Server.',
    },
  ),
  msCase(
    'unique-constraint-2627',
    2627,
    "Violation of PRIMARY KEY constraint 'PK_Orders'. Cannot insert duplicate key in object 'dbo.Orders'. The duplicate key value is (42).",
    {
      class: 'validation',
      code: '2627',
      ...NO,
    },
  ),
  msCase(
    'unique-index-2601',
    2601,
    "Cannot insert duplicate key row in object 'dbo.Users' with unique index 'IX_Users_Email'. The duplicate key value is (a@b.c).",
    {
      class: 'validation',
      code: '2601',
      ...NO,
    },
  ),
  msCase(
    'fk-conflict-547',
    547,
    'The INSERT statement conflicted with the FOREIGN KEY constraint "FK_Items_Orders".',
    {
      class: 'validation',
      code: '547',
      ...NO,
    },
  ),
  msCase(
    'null-515',
    515,
    "Cannot insert the value NULL into column 'Email', table 'shop.dbo.Users'; column does not allow nulls. INSERT fails.",
    {
      class: 'validation',
      code: '515',
      ...NO,
    },
  ),
  msCase(
    'permission-229',
    229,
    "The SELECT permission was denied on the object 'Orders', database 'shop', schema 'dbo'.",
    {
      class: 'authentication',
      code: '229',
      ...NO,
    },
  ),
  msCase('invalid-object-208', 208, "Invalid object name 'dbo.H6Missing'.", {
    class: 'permanent',
    code: '208',
    ...NO,
  }),
  msCase('lock-timeout-1222', 1222, 'Lock request time out period exceeded.', {
    class: 'transient',
    code: '1222',
    retryable: true,
  }),
  msCase(
    'azure-40613-db-unavailable',
    40613,
    "Database 'shop' on server 'sql-prod' is not currently available. Please retry the connection later.",
    { class: 'transient', code: '40613', retryable: true },
    { origin: `${TEDIOUS}; ${AZURE_SQL}; tedious lib/transient-error-lookup.js` },
  ),
  msCase(
    'azure-40197-service-error',
    40197,
    'The service has encountered an error processing your request. Please try again. Error code 4815.',
    { class: 'transient', code: '40197', retryable: true },
    { origin: `${TEDIOUS}; ${AZURE_SQL}` },
  ),
  msCase(
    'azure-40501-service-busy',
    40501,
    'The service is currently busy. Retry the request after 10 seconds. Incident ID: 1a2b. Code: 123.',
    { class: 'rate_limit', code: '40501', retryable: true },
    {
      origin: `${TEDIOUS}; ${AZURE_SQL}`,
      note: 'Azure SQL engine throttling; the docs say retry after 10 s.',
    },
  ),
  msCase(
    'azure-49918-cannot-process',
    49918,
    'Cannot process request. Not enough resources to process request. The service is currently busy.',
    { class: 'transient', code: '49918', retryable: true },
    { origin: `${TEDIOUS}; ${AZURE_SQL}` },
  ),
  msCase(
    'azure-10928-resource-limit',
    10928,
    'Resource ID : 1. The request limit for the database is 90 and has been reached.',
    { class: 'transient', code: '10928', retryable: true },
    {
      origin: `${TEDIOUS}; ${AZURE_SQL}; tedious lib/transient-error-lookup.js`,
      note: 'rate_limit is also defensible.',
    },
  ),
  {
    id: 'mssql-aggregate-unique-then-terminated',
    origin: `${TEDIOUS} (more than one ERROR token: request.error = new AggregateError(errors))`,
    note: 'The first error says why; 3621 "The statement has been terminated." only follows it.',
    build: () =>
      new AggregateError([
        tediousRequestError(
          2627,
          "Violation of UNIQUE KEY constraint 'UQ_Email'. Cannot insert duplicate key in object 'dbo.Users'.",
          1,
          14,
        ),
        tediousRequestError(3621, 'The statement has been terminated.', 0, 0),
      ]),
    ctx: { system: 'microsoft.sql_server' },
    expected: { class: 'validation', code: '2627', ...NO },
  },
  {
    id: 'mssql-login-failed-elogin',
    origin:
      'tedious 19.2.2 lib/token/handler.js Login7TokenHandler.onErrorMessage (ConnectionError ELOGIN, no number)',
    build: () => new ConnectionError("Login failed for user 'app'.", 'ELOGIN'),
    ctx: { system: 'microsoft.sql_server' },
    expected: { class: 'authentication', code: 'ELOGIN', ...NO },
  },
  {
    id: 'mssql-login-transient-elogin',
    origin: 'tedious 19.2.2 lib/token/handler.js (isTransient = true for 4060/10928/10929/40197/40501/40613)',
    build: () =>
      Object.assign(
        new ConnectionError("Database 'shop' on server 'sql-prod' is not currently available.", 'ELOGIN'),
        {
          isTransient: true,
        },
      ),
    ctx: { system: 'microsoft.sql_server' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mssql-connect-etimeout',
    origin: 'tedious 19.2.2 lib/connection.js connectTimeout (ConnectionError ETIMEOUT)',
    build: () => new ConnectionError('Failed to connect to sql-prod:1433 in 15000ms', 'ETIMEOUT'),
    expected: { class: 'transient', code: 'ETIMEOUT', retryable: true },
  },
  {
    id: 'mssql-socket-econnrefused',
    origin: 'tedious 19.2.2 lib/connection.js wrapSocketError (ConnectionError ESOCKET with cause)',
    build: () => {
      const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:1433'), {
        errno: -111,
        code: 'ECONNREFUSED',
        syscall: 'connect',
        address: '10.0.0.5',
        port: 1433,
      });
      return new ConnectionError(`Failed to connect to 10.0.0.5:1433 - ${cause.message}`, 'ESOCKET', {
        cause,
      });
    },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mssql-request-etimeout',
    origin: 'tedious 19.2.2 lib/connection.js requestTimeout (RequestError ETIMEOUT)',
    build: () => new RequestError('Timeout: Request failed to complete in 15000ms', 'ETIMEOUT'),
    expected: { class: 'transient', code: 'ETIMEOUT', retryable: true },
  },
  {
    id: 'mssql-request-eparam',
    origin: 'tedious 19.2.2 lib/request.js validateParameters (RequestError EPARAM)',
    build: () => new RequestError("Validation failed for parameter 'id'. Invalid number.", 'EPARAM'),
    expected: { class: 'validation', code: 'EPARAM', ...NO },
  },
  {
    id: 'mssql-eencrypt',
    origin: 'tedious 19.2.2 lib/connection.js (ConnectionError EENCRYPT)',
    build: () =>
      new ConnectionError("Server requires encryption, set 'encrypt' config option to true.", 'EENCRYPT'),
    expected: { class: 'permanent', ...NO },
  },
  redisCase(
    'wrongtype',
    'WRONGTYPE Operation against a key holding the wrong kind of value',
    {
      class: 'validation',
      code: 'WRONGTYPE',
      ...NO,
    },
    { note: 'The command does not fit the data: repair the call (permanent is defensible); never retry.' },
  ),
  redisCase('noauth', 'NOAUTH Authentication required.', { class: 'authentication', code: 'NOAUTH', ...NO }),
  {
    id: 'redis-wrongpass-auth-args-redacted',
    origin: `${IOREDIS} (AUTH reply; err.command.args carries the password)`,
    secrets: ['h6-redis-Sup3rSecret'],
    build: () =>
      redisReplyError('WRONGPASS invalid username-password pair or user is disabled.', {
        name: 'auth',
        args: ['default', 'h6-redis-Sup3rSecret'],
      }),
    ctx: { system: 'redis' },
    expected: { class: 'authentication', code: 'WRONGPASS', ...NO },
  },
  redisCase('noperm', "NOPERM User app has no permissions to run the 'flushall' command", {
    class: 'authentication',
    code: 'NOPERM',
    ...NO,
  }),
  redisCase('loading', 'LOADING Redis is loading the dataset in memory', {
    class: 'transient',
    code: 'LOADING',
    retryable: true,
  }),
  redisCase(
    'busy',
    'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.',
    {
      class: 'transient',
      code: 'BUSY',
      retryable: true,
    },
  ),
  redisCase(
    'readonly',
    "READONLY You can't write against a read only replica.",
    {
      class: 'transient',
      code: 'READONLY',
      retryable: true,
    },
    { note: 'Seen right after a failover until the client reconnects to the new primary.' },
  ),
  redisCase(
    'masterdown',
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    {
      class: 'transient',
      code: 'MASTERDOWN',
      retryable: true,
    },
  ),
  redisCase('tryagain', 'TRYAGAIN Multiple keys request during rehashing of slot', {
    class: 'transient',
    code: 'TRYAGAIN',
    retryable: true,
  }),
  redisCase('clusterdown', 'CLUSTERDOWN The cluster is down', {
    class: 'transient',
    code: 'CLUSTERDOWN',
    retryable: true,
  }),
  redisCase(
    'oom',
    "OOM command not allowed when used memory > 'maxmemory'.",
    { class: 'transient', code: 'OOM', retryable: true },
    {
      note: 'Capacity on the server side; clears when keys expire or are evicted. Back off.',
    },
  ),
  {
    id: 'ioredis-connection-is-closed',
    origin:
      'ioredis 6.0.0 built/utils/index.js CONNECTION_CLOSED_ERROR_MSG ("Connection is closed.", plain Error)',
    build: () => new Error('Connection is closed.'),
    ctx: { system: 'redis' },
    expected: { class: 'transient', retryable: true },
    note: 'A plain Error with no code: only ctx.system and the message identify it.',
  },
  {
    id: 'ioredis-max-retries-per-request',
    origin: 'ioredis 6.0.0 built/errors/MaxRetriesPerRequestError.js (extends redis-errors AbortError)',
    build: () => ioredisMaxRetriesError(20),
    ctx: { system: 'redis' },
    expected: { class: 'transient', retryable: true },
  },
  mongoCase(
    'duplicate-key-11000',
    {
      code: 11000,
      codeName: 'DuplicateKey',
      errmsg: 'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: "a@b.c" }',
      keyPattern: { email: 1 },
      keyValue: { email: 'a@b.c' },
    },
    { class: 'validation', code: '11000', ...NO },
  ),
  mongoCase(
    'write-conflict-transient-transaction',
    {
      code: 112,
      codeName: 'WriteConflict',
      errmsg: 'Write conflict during plan execution and yielding is disabled.',
      errorLabels: ['TransientTransactionError'],
    },
    { class: 'transient', code: '112', retryable: true },
    {
      origin: `${MONGO}; transactions spec https://www.mongodb.com/docs/manual/core/transactions-in-applications/#transienttransactionerror`,
    },
  ),
  mongoCase(
    'not-writable-primary-retryable-write',
    {
      code: 10107,
      codeName: 'NotWritablePrimary',
      errmsg: 'not primary',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', code: '10107', retryable: true },
    { origin: `${MONGO}; ${MONGO_RETRY}` },
  ),
  mongoCase(
    'primary-stepped-down-189',
    {
      code: 189,
      codeName: 'PrimarySteppedDown',
      errmsg: 'Primary stepped down while waiting for replication',
    },
    { class: 'transient', code: '189', retryable: true },
    { origin: `${MONGO}; ${MONGO_RETRY} (189 is in the retryable code list)` },
  ),
  mongoCase(
    'shutdown-in-progress-91',
    {
      code: 91,
      codeName: 'ShutdownInProgress',
      errmsg: 'The server is in quiesce mode and will shut down',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', code: '91', retryable: true },
  ),
  mongoCase(
    'unknown-code-with-retryable-label',
    {
      code: 999999,
      codeName: 'SomeFutureCode',
      errmsg: 'something new',
      errorLabels: ['RetryableWriteError'],
    },
    { class: 'transient', retryable: true },
    {
      note: 'The server label is the documented retry signal, whatever the code.',
      origin: `${MONGO}; ${MONGO_RETRY}`,
    },
  ),
  mongoCase(
    'authentication-failed-18',
    { code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' },
    { class: 'authentication', code: '18', ...NO },
  ),
  mongoCase(
    'unauthorized-13',
    {
      code: 13,
      codeName: 'Unauthorized',
      errmsg: 'not authorized on shop to execute command { insert: "orders" }',
    },
    { class: 'authentication', code: '13', ...NO },
  ),
  mongoCase(
    'document-validation-121',
    {
      code: 121,
      codeName: 'DocumentValidationFailure',
      errmsg: 'Document failed validation',
      errInfo: { failingDocumentId: 1 },
    },
    { class: 'validation', code: '121', ...NO },
  ),
  mongoCase(
    'max-time-ms-expired-50',
    { code: 50, codeName: 'MaxTimeMSExpired', errmsg: 'operation exceeded time limit' },
    { class: 'transient', code: '50', retryable: true },
  ),
  mongoCase(
    'cosmos-16500-request-rate-large',
    {
      code: 16500,
      codeName: 'RequestRateTooLarge',
      errmsg:
        "Error=16500, RetryAfterMs=72, Details='Response status code does not indicate success: TooManyRequests (429); Substatus: 3200; ActivityId: 1a2b'",
    },
    { class: 'rate_limit', retryable: true },
    {
      origin:
        'Azure Cosmos DB for MongoDB docs, https://learn.microsoft.com/azure/cosmos-db/mongodb/prevent-rate-limiting-errors (16500)',
    },
  ),
  {
    id: 'mongo-network-error-reset-pool',
    origin:
      'mongodb 6.x src/error.ts MongoNetworkError (labels ResetPool/RetryableWriteError added by the pool)',
    build: () => {
      const err = new MongoNetworkError('connection 3 to 10.0.0.8:27017 closed');
      err.addErrorLabel('ResetPool');
      err.addErrorLabel('RetryableWriteError');
      return err;
    },
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mongo-server-selection-econnrefused',
    origin: 'mongodb 6.x src/error.ts MongoServerSelectionError (reason: TopologyDescription)',
    build: () =>
      new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27017', {
        type: 'Unknown',
        servers: new Map([
          [
            '127.0.0.1:27017',
            {
              address: '127.0.0.1:27017',
              type: 'Unknown',
              error: new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'),
            },
          ],
        ]),
      }),
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
  redisCase(
    'err-max-clients',
    'ERR max number of clients reached',
    { class: 'transient', retryable: true },
    {
      note: 'Generic ERR prefix; the text says the server is out of connection slots: back off.',
    },
  ),
  redisCase(
    'misconf',
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk. Commands that may modify the data set are disabled.",
    { class: 'transient', code: 'MISCONF', retryable: true },
    { note: 'A server-side condition (disk), not the request: like a 503.' },
  ),
  {
    id: 'mongo-network-timeout-error',
    origin: 'mongodb 6.x src/error.ts MongoNetworkTimeoutError (extends MongoNetworkError)',
    build: () => {
      class MongoNetworkTimeoutError extends MongoNetworkError {
        override get name(): string {
          return 'MongoNetworkTimeoutError';
        }
      }
      return new MongoNetworkTimeoutError('connection 4 to 10.0.0.8:27017 timed out');
    },
    ctx: { system: 'mongodb' },
    expected: { class: 'transient', retryable: true },
  },
];
