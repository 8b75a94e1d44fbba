import { ConnectionError, RequestError } from 'tedious';
import type { ErrorCase, Expected } from '../corpus-case.js';

const TEDIOUS =
  'tedious 19.2.2 lib/token/handler.js onErrorMessage (RequestError EREQUEST + number/state/class)';
const AZURE_SQL =
  'Azure SQL transient errors, https://learn.microsoft.com/azure/azure-sql/database/troubleshoot-common-errors-issues#transient-fault-error-messages-40197-40613-and-others';
const MSSQL_REF =
  'SQL Server errors, https://learn.microsoft.com/sql/relational-databases/errors-events/database-engine-events-and-errors';

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

/** SQL Server through tedious: RequestError numbers, ConnectionError codes, Azure SQL's transient list. */
export const mssqlCases: ErrorCase[] = [
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
];
