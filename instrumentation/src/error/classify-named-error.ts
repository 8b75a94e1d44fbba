import { classForStatus } from '../http/status-class.js';
import type { ErrorClass } from '../types.js';
import { httpStatusOfErrorName } from './http-error-names.js';
import type { Verdict } from './verdict.js';

/**
 * Errors known only by their class name: ORMs, ODMs, validation libraries, and the generic names
 * SDKs give their classes (RateLimitError, CohereTimeoutError…). The dispatcher tries these after
 * the wrapped driver error (`parent`, `original`, `driverError`, `nativeError`): when the driver's
 * own code is there it is more specific, so the name only decides when it is not.
 * Code rule: the error's name; for an HTTP error's name (http-errors' ServiceUnavailableError,
 * TooManyRequestsError…, http-error-names.ts), the status it states, classed by the HTTP table.
 */
const BY_NAME: Record<string, ErrorClass> = {
  // Validation libraries (Zod, Valibot, Joi/yup/class-validator/Mongoose ValidationError).
  ValidationError: 'validation',
  ZodError: 'validation',
  ValiError: 'validation',
  ValidatorError: 'validation',
  CastError: 'validation',
  // Sequelize
  SequelizeValidationError: 'validation',
  SequelizeUniqueConstraintError: 'validation',
  SequelizeForeignKeyConstraintError: 'validation',
  SequelizeExclusionConstraintError: 'validation',
  SequelizeConnectionRefusedError: 'transient',
  SequelizeConnectionTimedOutError: 'transient',
  SequelizeConnectionAcquireTimeoutError: 'transient',
  SequelizeHostNotReachableError: 'transient',
  SequelizeHostNotFoundError: 'transient',
  SequelizeTimeoutError: 'transient',
  SequelizeOptimisticLockError: 'transient',
  SequelizeAccessDeniedError: 'authentication',
  SequelizeInvalidConnectionError: 'permanent',
  SequelizeEmptyResultError: 'permanent',
  // TypeORM
  EntityNotFoundError: 'permanent',
  OptimisticLockVersionMismatchError: 'transient',
  LockNotSupportedOnGivenDriverError: 'permanent',
  // Mongoose
  VersionError: 'transient', // optimistic concurrency: reload and retry
  DocumentNotFoundError: 'permanent',
  MongooseServerSelectionError: 'transient',
  // Knex
  KnexTimeoutError: 'transient', // "Timeout acquiring a connection. The pool is probably full."
  // Objection (db-errors)
  UniqueViolationError: 'validation',
  ForeignKeyViolationError: 'validation',
  NotNullViolationError: 'validation',
  CheckViolationError: 'validation',
  DataError: 'validation',
  // MikroORM
  UniqueConstraintViolationException: 'validation',
  ForeignKeyConstraintViolationException: 'validation',
  NotNullConstraintViolationException: 'validation',
  CheckConstraintViolationException: 'validation',
  DeadlockException: 'transient',
  LockWaitTimeoutException: 'transient',
  ConnectionException: 'transient',
  TableNotFoundException: 'permanent',
  InvalidFieldNameException: 'permanent',
  SyntaxErrorException: 'validation',
  // Generic class names SDKs use when they have nothing more specific. Those that name an HTTP
  // status (ServiceUnavailableError, TooManyRequestsError, NotFoundError…) are http-error-names.ts.
  NetworkError: 'transient',
  ConnectionError: 'transient',
  ConnectionClosedError: 'transient',
  RateLimitError: 'rate_limit',
  ThrottlingError: 'rate_limit',
  AuthenticationError: 'authentication',
  AuthorizationError: 'authentication',
  PermissionDeniedError: 'authentication',
};

/** Sources by library: validation libraries reject input before any call is made. */
function sourceFor(name: string): string {
  return name.endsWith('Exception') || name.startsWith('Sequelize') || name.startsWith('Knex')
    ? 'db'
    : 'unknown';
}

export function classifyNamedError(name: string): Verdict | null {
  const status = httpStatusOfErrorName(name);
  if (status !== undefined) {
    return { class: classForStatus(status)!, code: String(status), source: 'http', raw: { name, status } };
  }
  let cls = BY_NAME[name];
  // CohereTimeoutError, RequestTimeoutError, ConnectTimeoutException…: a timeout by any other name.
  if (cls === undefined && (name.endsWith('TimeoutError') || name.endsWith('TimeoutException')))
    cls = 'transient';
  if (cls === undefined) return null;
  return { class: cls, code: name, source: sourceFor(name), raw: { name } };
}
