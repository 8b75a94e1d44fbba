import type { ClassifyContext, ErrorClass } from '../types.js';
import { rootSystemCode } from './root-cause-code.js';
import { read, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * MongoDB through the official driver: MongoServerError carries the server's numeric `code`,
 * `codeName` and error labels (exposed by the `errorLabels` getter and `hasErrorLabel()`);
 * client-side failures are typed by name (MongoNetworkError, MongoServerSelectionError…).
 * Code rule: the numeric server code as a string ("11000"); the error's name when there is none.
 * Labels beat codes: the server labels exactly the errors a retry of the operation can fix.
 * A network or server-selection error takes the socket code in its `cause` chain when there is
 * one ("ECONNREFUSED"), as every driver's does; else its name.
 */

const TRANSIENT_LABELS = [
  'TransientTransactionError',
  'RetryableWriteError',
  'UnknownTransactionCommitResult',
  'ResetPool',
  'PoolRequestedRetry',
  'RetryableError',
];

const BY_CODE: Record<number, ErrorClass> = {
  11000: 'validation', // DuplicateKey
  11001: 'validation', // DuplicateKey (legacy)
  12582: 'validation', // DuplicateKeyValue (legacy)
  2: 'validation', // BadValue
  9: 'validation', // FailedToParse
  14: 'validation', // TypeMismatch
  40: 'validation', // ConflictingUpdateOperators
  52: 'validation', // DollarPrefixedFieldName
  66: 'validation', // ImmutableField
  72: 'validation', // InvalidOptions
  121: 'validation', // DocumentValidationFailure
  168: 'validation', // InvalidPipelineOperator
  10334: 'validation', // BSONObjectTooLarge
  17280: 'validation', // KeyTooLong
  13: 'authentication', // Unauthorized
  18: 'authentication', // AuthenticationFailed
  8000: 'authentication', // AtlasError: "bad auth"
  11: 'authentication', // UserNotFound
  112: 'transient', // WriteConflict
  50: 'transient', // MaxTimeMSExpired
  262: 'transient', // ExceededTimeLimit
  24: 'transient', // LockTimeout
  46: 'transient', // LockBusy
  6: 'transient', // HostUnreachable
  7: 'transient', // HostNotFound
  89: 'transient', // NetworkTimeout
  9001: 'transient', // SocketException
  91: 'transient', // ShutdownInProgress
  189: 'transient', // PrimarySteppedDown
  10107: 'transient', // NotWritablePrimary
  13435: 'transient', // NotPrimaryNoSecondaryOk
  13436: 'transient', // NotPrimaryOrSecondary
  11600: 'transient', // InterruptedAtShutdown
  11602: 'transient', // InterruptedDueToReplStateChange
  64: 'transient', // WriteConcernFailed (write concern timeout)
  63: 'transient', // StaleShardVersion
  150: 'transient', // StaleEpoch
  13388: 'transient', // StaleConfig
  133: 'transient', // FailedToSatisfyReadPreference
  234: 'transient', // RetryChangeStream
  251: 'transient', // NoSuchTransaction (retried with the whole transaction)
  43: 'transient', // CursorNotFound: re-run the query
  16500: 'rate_limit', // Cosmos DB's Mongo API: request rate is large
  462: 'rate_limit', // IngressRequestRateLimitExceeded
  26: 'permanent', // NamespaceNotFound
  27: 'permanent', // IndexNotFound
  59: 'permanent', // CommandNotFound
  115: 'permanent', // CommandNotSupported
  20: 'permanent', // IllegalOperation
};

/** WriteConflict and transaction-level conflicts are replayed at once by the drivers' own helpers. */
const REPLAY_NOW = new Set([112, 251]);

const BY_NAME: Record<string, ErrorClass> = {
  MongoNetworkError: 'transient',
  MongoNetworkTimeoutError: 'transient',
  MongoServerSelectionError: 'transient',
  MongoPoolClearedError: 'transient',
  MongoWaitQueueTimeoutError: 'transient',
  MongoOperationTimeoutError: 'transient',
  MongoServerClosedError: 'transient',
  MongoNotConnectedError: 'transient',
  MongoTopologyClosedError: 'permanent',
  MongoExpiredSessionError: 'permanent',
  MongoCursorExhaustedError: 'permanent',
  MongoMissingCredentialsError: 'authentication',
  MongoParseError: 'validation',
  MongoInvalidArgumentError: 'validation',
  MongoCompatibilityError: 'permanent',
  MongoAPIError: 'permanent',
  MongoRuntimeError: 'permanent',
};

function labelsOf(err: unknown): string[] {
  const labels = read(err, 'errorLabels');
  if (Array.isArray(labels)) return labels.filter((l): l is string => typeof l === 'string').slice(0, 16);
  return [];
}

function hasTransientLabel(err: unknown, labels: string[]): boolean {
  for (const label of TRANSIENT_LABELS) if (labels.includes(label)) return true;
  // Older drivers keep labels private and only answer hasErrorLabel().
  if (labels.length === 0) {
    const has = read(err, 'hasErrorLabel');
    if (typeof has === 'function') {
      try {
        for (const label of TRANSIENT_LABELS) if (has.call(err, label) === true) return true;
      } catch {
        return false;
      }
    }
  }
  return false;
}

export function classifyMongodbError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  const name = readString(err, 'name') ?? '';
  const codeName = readString(err, 'codeName');
  const isMongo = name.startsWith('Mongo') || codeName !== undefined || ctx?.system === 'mongodb';
  if (!isMongo) return null;
  const code = readNumber(err, 'code');
  const labels = labelsOf(err);
  const raw: Record<string, unknown> = { name };
  if (code !== undefined) raw.code = code;
  if (codeName !== undefined) raw.codeName = codeName;
  if (labels.length > 0) raw.errorLabels = labels;
  const stableCode = code !== undefined ? String(code) : name;
  if (hasTransientLabel(err, labels)) {
    // A labelled network error (ResetPool, RetryableWriteError) still names its socket failure.
    const socket = code === undefined ? rootSystemCode(err) : undefined;
    if (socket !== undefined) raw.socket = socket;
    const verdict: Verdict = { class: 'transient', code: socket ?? stableCode, source: 'db', raw };
    if (labels.includes('TransientTransactionError') || (code !== undefined && REPLAY_NOW.has(code))) {
      verdict.retryAfter = 0;
    }
    return verdict;
  }
  if (code !== undefined && code in BY_CODE) {
    const verdict: Verdict = { class: BY_CODE[code] as ErrorClass, code: stableCode, source: 'db', raw };
    if (REPLAY_NOW.has(code)) verdict.retryAfter = 0;
    return verdict;
  }
  const byName = BY_NAME[name];
  if (byName !== undefined) {
    // Only transient client errors sit on a socket; the driver's own refusals keep their name.
    const socket = byName === 'transient' && code === undefined ? rootSystemCode(err) : undefined;
    if (socket !== undefined) raw.socket = socket;
    return { class: byName, code: socket ?? stableCode, source: 'db', raw };
  }
  // A server error we do not know, or a bulk write whose first write error says more.
  const writeErrors = read(err, 'writeErrors');
  if (Array.isArray(writeErrors) && writeErrors.length > 0) {
    const first = readNumber(writeErrors[0], 'code');
    if (first !== undefined && first in BY_CODE) {
      return { class: BY_CODE[first] as ErrorClass, code: String(first), source: 'db', raw };
    }
  }
  if (name.startsWith('Mongo') || codeName !== undefined) {
    return { class: 'permanent', code: stableCode, source: 'db', raw };
  }
  return null;
}
