import {
  MSSQL_NUMBER_BY_TEXT,
  MYSQL_ERRNO_BY_TEXT,
  MYSQL_ERRNO_IN_TEXT,
  NODE_SOCKET_CODE,
  SOCKET_CODE_BY_TEXT,
} from './driver-texts.js';
import { httpStatusInText, retryAfterInText } from './http-status-texts.js';
import { libraryFields, typeCode } from './library-fields.js';
import { PG_SANITIZED } from './library-texts.js';
import { SQLSTATE_BY_CONDITION, SQLSTATE_BY_TEXT, SQLSTATE_IN_TEXT } from './postgres-conditions.js';
import type { FailedSpanFields, SpanError } from './span-error.js';

/** What a span says about its error: the exception event, else the status message. */
export function spanErrorOf(span: FailedSpanFields): SpanError {
  const attrs = span.attrs;
  let message =
    span.exceptionMessage || span.statusMessage || attrs['grpc.error_message'] || 'operation failed';
  let type = span.exceptionType || undefined;
  // instrumentation-pg's sanitized exception hides the driver's text, which the status keeps.
  const sanitized = PG_SANITIZED.exec(message);
  if (sanitized !== null && span.statusMessage) {
    message = span.statusMessage;
    type ??= sanitized[2] !== 'UNKNOWN' ? sanitized[2] : undefined;
  }
  const errorType = attrs['error.type'];
  return {
    type,
    message,
    errorType: errorType && errorType !== '_OTHER' ? errorType : undefined,
  };
}

/** The last segment of a qualified class name: psycopg2.errors.DeadlockDetected → DeadlockDetected. */
function shortName(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  return /([A-Za-z0-9_]+)$/.exec(type)?.[1];
}

function firstMatch<T>(table: ReadonlyArray<readonly [RegExp, T]>, text: string): T | undefined {
  for (const [re, value] of table) if (re.test(text)) return value;
  return undefined;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** A SQLSTATE by its class (digits first, or F0/HV/P0/XX): never a word such as "ERROR". */
const SERVER_SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;
const INTEGER = /^-?\d+$/;

/**
 * The driver error the span describes, in the shape the typed classifiers read (pg `code`, mysql
 * `errno`, tedious `number`, Node `code` + `syscall`), with the most specific code the span states
 * or its text honestly implies; a plain `{ name, message }` when it implies none.
 */
export function errorLikeOf(err: SpanError, system: string | undefined, dbStatus: string | undefined) {
  const name = err.type ?? err.errorType ?? 'Error';
  const out: Record<string, unknown> = { name, message: err.message };
  const text = err.message;
  if (system === 'postgresql') {
    const m = SQLSTATE_IN_TEXT.exec(text);
    const code =
      (dbStatus && SQLSTATE.test(dbStatus) ? dbStatus : undefined) ??
      (m ? (m[1] ?? m[2]) : undefined) ??
      SQLSTATE_BY_CONDITION[shortName(err.type) ?? ''] ??
      // OpenTelemetry JS records a PostgresError's `code` (the SQLSTATE) as exception.type.
      (err.type && SERVER_SQLSTATE.test(err.type) ? err.type : undefined) ??
      (err.errorType && SQLSTATE.test(err.errorType) ? err.errorType : undefined) ??
      firstMatch(SQLSTATE_BY_TEXT, text);
    if (code !== undefined) {
      out.code = code;
      return out;
    }
  } else if (system === 'mysql' || system === 'mariadb') {
    const m = MYSQL_ERRNO_IN_TEXT.exec(text);
    const errno =
      (dbStatus && INTEGER.test(dbStatus) ? Number(dbStatus) : undefined) ??
      (m ? Number(m[1] ?? m[3]) : undefined) ??
      firstMatch(MYSQL_ERRNO_BY_TEXT, text);
    if (errno !== undefined) {
      out.errno = errno;
      if (m?.[2]) out.sqlState = m[2];
      return out;
    }
  } else if (system === 'microsoft.sql_server') {
    // instrumentation-tedious leaves tedious's own code (ETIMEOUT, ELOGIN…) when no server number:
    // the driver's word, before any reading of the text.
    if (dbStatus && !INTEGER.test(dbStatus)) {
      out.code = dbStatus;
      return out;
    }
    const number = (dbStatus ? Number(dbStatus) : undefined) ?? firstMatch(MSSQL_NUMBER_BY_TEXT, text);
    if (number !== undefined) {
      out.number = number;
      return out;
    }
  }
  if (libraryFields(err, system, out)) return out;
  // A status the text states (a tool's "HTTP 429 Too Many Requests; retry after 2s"): classified as
  // the response it describes, with the wait as the Retry-After it restates.
  const status = httpStatusInText(text);
  if (status !== undefined) {
    out.status = status;
    const wait = retryAfterInText(text);
    if (wait !== undefined) out.headers = { 'retry-after': String(wait) };
    return out;
  }
  const code =
    NODE_SOCKET_CODE.exec(text)?.[1] ??
    NODE_SOCKET_CODE.exec(err.type ?? '')?.[1] ??
    firstMatch(SOCKET_CODE_BY_TEXT, `${text} ${err.type ?? ''}`);
  if (code !== undefined) {
    out.code = code;
    out.syscall = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'getaddrinfo' : 'connect';
    return out;
  }
  // A code-shaped exception.type (OpenTelemetry JS records the error's `code` there) or
  // error.type (semconv: "the error's code when it has one") is kept as the code.
  const code2 = typeCode(err);
  if (code2 !== undefined && !/^\d+$/.test(code2)) out.code = code2;
  else if (err.errorType && /^[A-Z][A-Z0-9_]+$/.test(err.errorType)) out.code = err.errorType;
  return out;
}
