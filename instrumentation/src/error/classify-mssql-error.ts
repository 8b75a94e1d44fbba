import type { ClassifyContext, ErrorClass } from '../types.js';
import { errorName, read, readNumber, readString } from './safe-read.js';
import { pick, type Verdict } from './verdict.js';

/**
 * SQL Server through tedious (and node-mssql, which wraps it). tedious builds a RequestError with
 * code 'EREQUEST' and copies the server's `number`, `state`, `class`, `serverName`, `procName`,
 * `lineNumber`; several server errors in one batch arrive as an AggregateError of RequestErrors.
 * Connection problems are ConnectionError with a code (ELOGIN, ETIMEOUT, ESOCKET…); a login error
 * that SqlClient's list calls transient gets `isTransient = true`.
 * Code rule: the server error number as a string ("1205"); the tedious/mssql code otherwise.
 */

const BY_NUMBER: Record<number, ErrorClass> = {
  // Concurrency and resource waits: the batch was rolled back or timed out waiting.
  1205: 'transient', // deadlock victim
  1222: 'transient', // lock request time out period exceeded
  1204: 'transient', // cannot obtain a LOCK resource
  3960: 'transient', // snapshot isolation update conflict
  41301: 'transient', // In-Memory OLTP dependency failure
  41302: 'transient', // In-Memory OLTP update conflict
  41305: 'transient', // In-Memory OLTP repeatable read validation
  41325: 'transient', // In-Memory OLTP serializable validation
  41839: 'transient', // In-Memory OLTP too many dependencies
  701: 'transient', // insufficient system memory
  8645: 'transient', // timeout waiting for memory resources
  8651: 'transient', // low memory condition
  8628: 'transient', // timeout waiting to optimize the query
  9002: 'transient', // transaction log full
  1105: 'transient', // filegroup full
  3906: 'transient', // database is read-only (a secondary right after failover)
  976: 'transient', // availability group database not accessible
  // Azure SQL transient list (Microsoft's documented retry list, SqlClient's and tedious's).
  4060: 'transient', // cannot open database requested by the login (Azure: reconfiguration)
  4221: 'transient', // login to read-secondary failed due to long wait on HADR
  10928: 'transient', // resource limit reached
  10929: 'transient', // resource governance minimum not guaranteed
  40143: 'transient',
  40197: 'transient', // service error processing the request
  40501: 'rate_limit', // engine throttling: "service is busy, retry after 10 seconds"
  40540: 'transient',
  40549: 'transient', // session terminated: long-running transaction
  40550: 'transient', // session terminated: too many locks
  40551: 'transient', // session terminated: excessive tempdb usage
  40552: 'transient', // session terminated: excessive log usage
  40553: 'transient', // session terminated: excessive memory usage
  40613: 'transient', // database not currently available
  49918: 'transient', // not enough resources to process request
  49919: 'transient', // too many create/update operations in progress
  49920: 'transient', // too many operations in progress
  17142: 'transient', // server paused
  18401: 'transient', // server in script upgrade mode
  // Network-level numbers surfaced as server errors (Winsock and named pipes).
  [-2]: 'transient', // client timeout
  20: 'transient', // instance does not support encryption / connection closed during pre-login
  64: 'transient', // connection error during login
  121: 'transient', // semaphore timeout
  233: 'transient', // no process is on the other end of the pipe
  10053: 'transient', // connection aborted by the host
  10054: 'transient', // connection reset by peer
  10060: 'transient', // connection attempt timed out
  10061: 'transient', // connection refused
  11001: 'transient', // host not found
  // Credentials and permissions.
  18456: 'authentication', // login failed for user
  18452: 'authentication', // login from an untrusted domain
  18470: 'authentication', // account disabled
  18486: 'authentication', // account locked out
  18487: 'authentication', // password expired
  18488: 'authentication', // password must be changed
  916: 'authentication', // principal cannot access the database under the current context
  229: 'authentication', // permission denied on object
  230: 'authentication', // permission denied on column
  262: 'authentication', // permission denied in database
  297: 'authentication', // user does not have permission to perform this action
  300: 'authentication', // VIEW SERVER STATE permission denied
  // Integrity and data.
  2627: 'validation', // unique / primary key constraint violation
  2601: 'validation', // duplicate key row in unique index
  547: 'validation', // FOREIGN KEY / CHECK constraint conflict
  515: 'validation', // cannot insert NULL
  2628: 'validation', // string or binary data would be truncated (2019+)
  8152: 'validation', // string or binary data would be truncated
  8114: 'validation', // error converting data type
  8115: 'validation', // arithmetic overflow
  8134: 'validation', // divide by zero
  245: 'validation', // conversion failed
  241: 'validation', // conversion failed (date/time)
  242: 'validation', // out-of-range datetime
  4815: 'validation', // bulk load: column too long
  // Statement errors.
  102: 'validation', // incorrect syntax
  156: 'validation', // incorrect syntax near keyword
  207: 'permanent', // invalid column name: the schema is not what the batch assumes
  208: 'permanent', // invalid object name
  201: 'validation', // procedure expects a parameter
  8144: 'validation', // too many arguments
  2812: 'permanent', // could not find stored procedure
  137: 'validation', // must declare the scalar variable
};

/** tedious and node-mssql codes (no server number). */
const BY_CODE: Record<string, ErrorClass> = {
  ETIMEOUT: 'transient',
  ESOCKET: 'transient',
  ECLOSE: 'transient',
  ECONNCLOSED: 'transient', // mssql: connection is closed
  ENOCONN: 'transient', // mssql: no connection is specified for that request
  EABORT: 'transient', // mssql: transaction aborted by the server
  EINSTLOOKUP: 'transient', // SQL Browser (UDP 1434) did not answer
  ELOGIN: 'authentication',
  EFEDAUTH: 'authentication',
  ECANCEL: 'permanent', // cancelled by the caller
  EENCRYPT: 'permanent',
  ETDS: 'permanent',
  EINTERFACENOTSUPP: 'permanent',
  EINVALIDSTATE: 'permanent',
  EPARAM: 'validation',
  EARGS: 'validation', // mssql: invalid arguments
  EINJECT: 'validation', // mssql: SQL injection warning
  EDRIVER: 'permanent',
  EALREADYCONNECTED: 'permanent',
  EALREADYCONNECTING: 'permanent',
  ENOTOPEN: 'permanent',
  ENOTBEGUN: 'permanent',
  EREQINPROG: 'permanent',
};

/** Deadlock and snapshot conflicts roll the batch back cleanly: replay at once. */
const REPLAY_NOW = new Set([1205, 3960, 41302, 41305, 41325]);

const RAW_KEYS = [
  'name',
  'code',
  'number',
  'state',
  'class',
  'serverName',
  'procName',
  'lineNumber',
  'isTransient',
];

const ERROR_NAMES = new Set([
  'RequestError',
  'ConnectionError',
  'TransactionError',
  'PreparedStatementError',
]);

export function isMssqlError(err: unknown, ctx: ClassifyContext | undefined): boolean {
  const code = readString(err, 'code');
  const num = readNumber(err, 'number');
  if (ctx?.system === 'microsoft.sql_server' || ctx?.system === 'mssql')
    return num !== undefined || code !== undefined;
  // tedious leaves `name` as "Error" (the constructor says RequestError); node-mssql sets it.
  const name = errorName(err);
  if (name !== undefined && ERROR_NAMES.has(name)) return code !== undefined || num !== undefined;
  if (code === 'EREQUEST') return true;
  // Node's DNS module also uses ETIMEOUT, but its errors carry `syscall`; tedious's never do.
  return code !== undefined && code in BY_CODE && read(err, 'syscall') === undefined;
}

/** One server error: its number decides; deadlock and snapshot conflicts get retry_after 0. */
function fromNumber(err: unknown, num: number): Verdict {
  const verdict: Verdict = {
    // Unknown numbers include user RAISERROR (>= 50000): nothing says a retry would help.
    class: BY_NUMBER[num] ?? 'permanent',
    code: String(num),
    source: 'db',
    raw: pick(err, RAW_KEYS),
  };
  if (REPLAY_NOW.has(num)) verdict.retryAfter = 0;
  // Azure's throttling text names the wait: "The service is currently busy. Retry the request
  // after 10 seconds." — the server's own signal, so it wins over a default backoff.
  if (num === 40501) {
    const after = /retry the request after (\d+) seconds/i.exec(readString(err, 'message') ?? '')?.[1];
    if (after !== undefined) verdict.retryAfter = Number(after);
  }
  return verdict;
}

export function classifyMssqlError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  if (!isMssqlError(err, ctx)) return null;
  // node-mssql keeps tedious's error in `originalError`; the server number is on both.
  const num = readNumber(err, 'number');
  if (num !== undefined && num !== 0) return fromNumber(err, num);
  const code = readString(err, 'code');
  if (code === undefined || !(code in BY_CODE)) return null;
  let cls = BY_CODE[code] as ErrorClass;
  // tedious flags the Azure login errors SqlClient retries (4060, 40613, 40501…) as transient.
  if (code === 'ELOGIN' && read(err, 'isTransient') === true) cls = 'transient';
  return { class: cls, code, source: 'db', raw: pick(err, RAW_KEYS) };
}

/**
 * tedious reports several server errors of one batch as an AggregateError; the first one whose
 * number we know carries the meaning ("547 FK conflict" before "3621 statement terminated").
 */
export function classifyMssqlAggregate(errors: readonly unknown[]): Verdict | null {
  let first: Verdict | null = null;
  for (const item of errors.slice(0, 16)) {
    const num = readNumber(item, 'number');
    if (num === undefined) continue;
    const verdict = fromNumber(item, num);
    // The AggregateError's own message is empty: the member's is the server's text.
    verdict.message = readString(item, 'message');
    if (num in BY_NUMBER) return verdict;
    first ??= verdict;
  }
  return first;
}
