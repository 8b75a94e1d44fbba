import type { Context } from '@opentelemetry/api';
import type { LogRecord } from '@opentelemetry/api-logs';
import { envelopeAttributes } from '../../envelope/envelope-attributes.js';
import { classifyError } from '../../error/classify-error.js';
import { correlationIdOf } from './correlation.js';

/** SeverityNumber ERROR; ERROR2…4 and FATAL…FATAL4 are above it (logs data model). */
const SEVERITY_ERROR = 17;
/** Severity texts that mean ERROR or worse when a record's number is unset. */
const ERROR_TEXTS = /^(error|err|fatal|critical|crit|severe|alert|emerg(ency)?|panic)\d?$/i;

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
/**
 * An `exception.type` that is a code rather than a class name: the SDK writes an error's `code` there
 * when it has one (ECONNRESET, ER_LOCK_DEADLOCK), and the classifiers read codes from `code`.
 */
const CODE_LIKE = /^[A-Z][A-Z0-9_]{2,}$/;

/**
 * Whether the application logged a failure: severity ERROR or above, or an error with the record
 * at any severity (the Logs API's `exception`, as pino's log sending passes its `err`, or the
 * semantic conventions' `exception.type` / `exception.message` attributes). Cheap: it runs for
 * every record the application's loggers send.
 */
export function isFailureRecord(record: LogRecord): boolean {
  const n = record.severityNumber ?? 0;
  if (n >= SEVERITY_ERROR) return true;
  if (present(record.exception)) return true;
  const attrs = record.attributes;
  if (attrs && (present(attrs['exception.type']) || present(attrs['exception.message']))) return true;
  return n === 0 && typeof record.severityText === 'string' && ERROR_TEXTS.test(record.severityText);
}

/**
 * The error a record carries: its `exception` (a real Error from the Logs API, or pino's serialized
 * `err` with every enumerable field of the original: code, errno, syscall, a driver's SQLSTATE …),
 * else one rebuilt from its `exception.*` attributes; undefined when it carries none.
 */
function errorOf(record: LogRecord): unknown {
  if (present(record.exception)) return record.exception;
  const type = record.attributes?.['exception.type'];
  const message = record.attributes?.['exception.message'];
  if (!present(type) && !present(message)) return undefined;
  return {
    ...(typeof type === 'string' ? { name: type } : {}),
    ...(typeof type === 'string' && CODE_LIKE.test(type) ? { code: type } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/**
 * The envelope attributes of a record that carries an error, classified by the classifiers that
 * classify a span's (classifyError), as a span carries them (`faultline.class` …, the correlation id
 * always: the collector derives none for a record). Undefined when the record carries no error: an
 * ERROR line alone names no failed operation, and the collector decides what its attributes show.
 */
export function loggedErrorAttributes(
  record: LogRecord,
  context: Context,
): Record<string, string | number | boolean> | undefined {
  const error = errorOf(record);
  if (error === undefined) return undefined;
  const correlationId = correlationIdOf(context);
  const envelope = classifyError(error, correlationId ? { correlationId } : undefined);
  return envelopeAttributes(envelope, record.attributes ?? {}, { correlationId: '', sourceDerivable: false });
}
