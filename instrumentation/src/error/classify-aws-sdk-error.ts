import { defaultRetryable } from '../envelope/error-classes.js';
import { classForStatus } from '../http/status-class.js';
import { QUOTA, vendorMeaning } from '../http/vendor-codes.js';
import type { ErrorClass } from '../types.js';
import { retryAfterOf } from './retry-after-of.js';
import { read, readHttpStatus, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * AWS SDK for JavaScript v3: every service error extends @smithy's ServiceException, with the
 * service's error code as `name`, `$fault` ('client' | 'server'), `$retryable` ({ throttling }),
 * `$metadata.httpStatusCode` and a non-enumerable `$response` (statusCode, headers).
 * The name lists mirror @smithy/core's retry module (THROTTLING_ERROR_CODES, CLOCK_SKEW…,
 * TRANSIENT_ERROR_CODES): a ThrottlingException is a rate limit even when sent with a 400.
 * Code rule: the code AWS sent on the wire — the XML `<Code>` the SDK keeps in `Code` for the
 * query and restXml protocols (SNS `NotFound`, which the SDK names NotFoundException), else the
 * error name, which for the JSON protocols is `__type` ("ThrottlingException"). The class looks
 * at both, then at the vendor table (S3's 409 OperationAborted is "try again", SQS's 400
 * QueueDoesNotExist a missing queue), and only then at the status.
 */

const THROTTLING = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

const BY_NAME: Record<string, ErrorClass> = {
  // Credentials, signatures and permissions.
  ExpiredToken: 'authentication',
  ExpiredTokenException: 'authentication',
  UnrecognizedClientException: 'authentication',
  InvalidSignatureException: 'authentication',
  SignatureDoesNotMatch: 'authentication',
  IncompleteSignature: 'authentication',
  InvalidClientTokenId: 'authentication',
  InvalidAccessKeyId: 'authentication',
  MissingAuthenticationToken: 'authentication',
  MissingAuthenticationTokenException: 'authentication',
  AccessDenied: 'authentication',
  AccessDeniedException: 'authentication',
  AuthFailure: 'authentication',
  NotAuthorizedException: 'authentication',
  UnauthorizedException: 'authentication',
  UnauthorizedOperation: 'authentication',
  InvalidIdentityTokenException: 'authentication',
  TokenRefreshRequired: 'authentication',
  CredentialsProviderError: 'authentication',
  // Clock skew: the SDK corrects its offset and the next attempt is signed right.
  RequestExpired: 'transient',
  RequestTimeTooSkewed: 'transient',
  RequestInTheFuture: 'transient',
  // Server side and timeouts.
  TimeoutError: 'transient',
  RequestTimeout: 'transient',
  RequestTimeoutException: 'transient',
  InternalServerError: 'transient',
  InternalServerException: 'transient',
  InternalFailure: 'transient',
  InternalError: 'transient',
  ServiceUnavailable: 'transient',
  ServiceUnavailableException: 'transient',
  ServiceException: 'transient',
  TransactionConflictException: 'transient',
  // The request must change.
  ValidationException: 'validation',
  ValidationError: 'validation',
  SerializationException: 'validation',
  InvalidParameterException: 'validation',
  InvalidParameterValue: 'validation',
  InvalidParameterValueException: 'validation',
  InvalidParameterCombination: 'validation',
  InvalidRequestException: 'validation',
  InvalidRequest: 'validation',
  InvalidArgument: 'validation',
  InvalidInput: 'validation',
  MissingParameter: 'validation',
  MalformedXML: 'validation',
  MalformedPolicyDocument: 'validation',
  BadRequestException: 'validation',
  IdempotentParameterMismatch: 'validation',
  IdempotentParameterMismatchException: 'validation',
  // The world is not in the state the request assumes: replan.
  ConditionalCheckFailedException: 'permanent',
  ResourceNotFoundException: 'permanent',
  ResourceInUseException: 'permanent',
  ConflictException: 'permanent',
  NoSuchKey: 'permanent',
  NoSuchBucket: 'permanent',
  NotFound: 'permanent',
  NotFoundException: 'permanent',
  PreconditionFailed: 'permanent',
  ServiceQuotaExceededException: 'permanent', // a quota raise, not a wait, fixes it
  ItemCollectionSizeLimitExceededException: 'permanent',
};

/** DynamoDB's TransactionCanceledException lists one reason per item; the worst one decides. */
const CANCELLATION: Record<string, ErrorClass> = {
  ThrottlingError: 'rate_limit',
  ProvisionedThroughputExceeded: 'rate_limit',
  RequestLimitExceeded: 'rate_limit',
  TransactionConflict: 'transient',
  ValidationError: 'validation',
  ConditionalCheckFailed: 'permanent',
  ItemCollectionSizeLimitExceeded: 'permanent',
};

function cancellationClass(err: unknown): ErrorClass {
  const reasons = read(err, 'CancellationReasons');
  if (!Array.isArray(reasons)) return 'permanent';
  let found: ErrorClass | undefined;
  for (const reason of reasons.slice(0, 100)) {
    const cls = CANCELLATION[readString(reason, 'Code') ?? ''];
    if (cls === 'rate_limit') return cls;
    if (cls === 'transient' || (cls !== undefined && found === undefined)) found = cls;
  }
  return found ?? 'permanent';
}

/** ServiceException.isInstance's duck test, plus errors the SDK decorates with $metadata only. */
export function isAwsSdkError(err: unknown): boolean {
  const fault = read(err, '$fault');
  return fault === 'client' || fault === 'server' || read(err, '$metadata') !== undefined;
}

/** @smithy/property-provider's errors: no service call happened, the credentials chain failed. */
const CREDENTIAL_CHAIN = new Set(['CredentialsProviderError', 'TokenProviderError']);

/**
 * aws-sdk v2 (still common): AWS.util.error puts the service's error name in `code`, plus
 * `statusCode`, `retryable`, `requestId`, `time`. Its own client-side codes are listed here.
 */
const V2_CLIENT: Record<string, ErrorClass> = {
  NetworkingError: 'transient',
  TimeoutError: 'transient',
  UnknownEndpoint: 'transient',
  CredentialsError: 'authentication',
};

export function classifyAwsV2Error(err: unknown): Verdict | null {
  // `retryable` first: almost no other error has it, so the common case costs one read.
  const retryable = read(err, 'retryable');
  if (typeof retryable !== 'boolean') return null;
  const code = readString(err, 'code');
  if (code === undefined) return null;
  if (readString(err, 'requestId') === undefined && !(read(err, 'time') instanceof Date)) return null;
  const status = readHttpStatus(err, 'statusCode');
  let cls: ErrorClass | undefined;
  if (THROTTLING.has(code) || status === 429) cls = 'rate_limit';
  else cls = BY_NAME[code] ?? V2_CLIENT[code];
  if (cls === undefined) {
    if (retryable === true) cls = 'transient';
    else if (status !== undefined && status >= 400) cls = classForStatus(status) ?? 'permanent';
    else return null;
  }
  const raw: Record<string, unknown> = { code, retryable };
  if (status !== undefined) raw.statusCode = status;
  const requestId = readString(err, 'requestId');
  if (requestId !== undefined) raw.requestId = requestId;
  return { class: cls, code, source: 'sdk', raw };
}

/**
 * The code as AWS sent it: `Code` (XML `<Code>`) for query/restXml errors, whose SDK class name
 * may differ; JSON-protocol errors carry `__type`, and their name already is the wire code (a
 * query-compatible JSON service such as SQS also copies the legacy query code into `Code`).
 */
function wireCode(err: unknown, name: string): string {
  if (read(err, '__type') !== undefined) return name;
  const code = readString(err, 'Code');
  return code !== undefined && code.length > 0 && code.length <= 80 && !code.includes(' ') ? code : name;
}

export function classifyAwsSdkError(err: unknown): Verdict | null {
  if (!isAwsSdkError(err)) {
    const chainName = readString(err, 'name');
    if (chainName !== undefined && CREDENTIAL_CHAIN.has(chainName)) {
      return { class: 'authentication', code: chainName, source: 'sdk', raw: { name: chainName } };
    }
    return classifyAwsV2Error(err);
  }
  const fault = read(err, '$fault');
  const name = readString(err, 'name') ?? 'UnknownError';
  // Network errors reach the caller with $metadata ({ attempts, totalRetryDelay }) but no $fault:
  // their Node code says more than the name "Error".
  if (
    fault !== 'client' &&
    fault !== 'server' &&
    typeof read(err, 'code') === 'string' &&
    !(name in BY_NAME)
  ) {
    return null;
  }
  const metadata = read(err, '$metadata');
  const response = read(err, '$response');
  const status = readHttpStatus(metadata, 'httpStatusCode') ?? readHttpStatus(response, 'statusCode');
  const retryableTrait = read(err, '$retryable');
  const raw: Record<string, unknown> = { name };
  if (typeof fault === 'string') raw.$fault = fault;
  if (status !== undefined) raw.httpStatusCode = status;
  const requestId = readString(metadata, 'requestId');
  if (requestId !== undefined) raw.requestId = requestId;
  const attempts = readNumber(metadata, 'attempts');
  if (attempts !== undefined) raw.attempts = attempts;

  const code = wireCode(err, name);
  if (code !== name) raw.Code = code;
  let cls: ErrorClass;
  let quota = false;
  const known = BY_NAME[name] ?? BY_NAME[code];
  const meaning = known === undefined ? (vendorMeaning(name) ?? vendorMeaning(code)) : undefined;
  if (
    THROTTLING.has(name) ||
    THROTTLING.has(code) ||
    status === 429 ||
    read(retryableTrait, 'throttling') === true
  )
    cls = 'rate_limit';
  else if (name === 'TransactionCanceledException') cls = cancellationClass(err);
  else if (
    name === 'InvalidSignatureException' &&
    (readString(err, 'message') ?? '').includes('Signature expired')
  )
    cls = 'transient';
  else if (known !== undefined) cls = known;
  else if (meaning === QUOTA) {
    cls = 'permanent';
    quota = true;
  } else if (meaning !== undefined) cls = meaning;
  else if (retryableTrait !== undefined && retryableTrait !== null) cls = 'transient';
  else if (status !== undefined && status >= 400) cls = classForStatus(status) ?? 'permanent';
  else cls = fault === 'server' ? 'transient' : 'permanent';

  const verdict: Verdict = { class: cls, code, source: 'sdk', raw };
  if (quota) verdict.retryable = false;
  if (defaultRetryable(cls)) {
    const after = retryAfterOf(read(response, 'headers'));
    if (after !== null) verdict.retryAfter = after;
  }
  return verdict;
}
