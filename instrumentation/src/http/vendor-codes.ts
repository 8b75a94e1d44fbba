import type { ErrorClass } from '../types.js';

/**
 * Stable vendor error codes and what they mean for a caller. Keys are normalized (lower-case,
 * no `_ - . space`, a trailing `exception` dropped) so `ThrottlingException`, `Throttling`,
 * `RATE_LIMITED` and `rate_limited` meet in one entry. Sources: AWS Smithy's retry
 * classification, Azure Storage/ARM error codes, google.rpc.Code and Google's legacy `reason`
 * values, Apollo/Shopify/GitHub/Hasura GraphQL codes, Slack, Stripe, OpenAI, Anthropic, OAuth 2.0.
 */

/** Exhausted quota or billing: waiting inside a retry loop does not fix it. */
export const QUOTA = 'quota' as const;

export type VendorMeaning = ErrorClass | typeof QUOTA;

// biome-ignore format: a data table reads better packed than one code per line
const ENTRIES: Record<VendorMeaning, string[]> = {
  rate_limit: [
    // AWS (Smithy THROTTLING_ERROR_CODES and service-specific throttles)
    'Throttling', 'ThrottlingException', 'ThrottledException', 'RequestThrottledException',
    'RequestThrottled', 'TooManyRequestsException', 'ProvisionedThroughputExceededException',
    'TransactionInProgressException', 'RequestLimitExceeded', 'BandwidthLimitExceeded',
    'LimitExceededException', 'SlowDown', 'PriorRequestNotComplete', 'EC2ThrottledException',
    'RequestRateExceeded',
    // Azure
    'TooManyRequests', 'ServerBusy', 'SubscriptionRequestsThrottled', 'TenantRequestsThrottled',
    'RequestRateTooLarge',
    // Google (google.rpc.Code and legacy reasons)
    'RESOURCE_EXHAUSTED', 'rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED',
    'sharingRateLimitExceeded', 'limitExceeded',
    // GraphQL (Apollo, Shopify, GitHub)
    'RATE_LIMITED', 'THROTTLED',
    // Slack, OpenAI, Anthropic, Stripe, generic
    'REQUEST_LIMIT_EXCEEDED', 'RATE_LIMIT_ERROR', 'RATE_LIMIT_REACHED', 'throttledRequest', 'activityLimitReached',
    'es_rejected_execution_exception', 'ratelimited', 'rate_limit_exceeded', 'rate_limit_error', 'rate_limit', 'too_many_requests', 'slow_down',
    'concurrency_limit_exceeded', 'message_limit_exceeded',
  ],
  [QUOTA]: [
    'quotaLimitReached', 'STORAGE_LIMIT_EXCEEDED', 'insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active', 'billing_error',
    'quotaExceeded', 'dailyLimitExceeded', 'dailyLimitExceededUnreg', 'storageQuotaExceeded',
    'QuotaExceeded', 'ServiceQuotaExceededException', 'credit_balance_too_low', 'insufficient_credits',
    'quota_exceeded', 'usage_limit_exceeded',
  ],
  transient: [
    // AWS
    'InternalServerError', 'InternalServerException', 'InternalFailure', 'InternalError',
    'ServiceUnavailable', 'ServiceUnavailableException', 'RequestTimeout', 'RequestTimeoutException',
    'TimeoutError', 'TransactionConflictException', 'OperationAborted', 'ConcurrentModificationException',
    'InsufficientInstanceCapacity', 'IDPCommunicationError', 'ModelNotReadyException',
    'ModelTimeoutException', 'ServiceFailure', 'Unavailable', 'ServerUnavailable',
    // Azure
    'OperationTimedOut', 'ServerTimeout', 'RetryableError', 'GatewayTimeout',
    // Azure 409s that mean "another operation is running, retry later": ARM AnotherOperationInProgress
    // (learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors),
    // Storage *BeingDeleted (learn.microsoft.com/rest/api/storageservices/queue-service-error-codes,
    // blob-service-error-codes)
    'AnotherOperationInProgress', 'QueueBeingDeleted', 'ContainerBeingDeleted', 'ShareBeingDeleted',
    // google.rpc.Code / legacy reasons
    'UNAVAILABLE', 'DEADLINE_EXCEEDED', 'ABORTED', 'INTERNAL', 'backendError', 'internalError',
    // GraphQL
    'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE', 'DOWNSTREAM_SERVICE_ERROR', 'TIMEOUT',
    // Anthropic, OpenAI, Stripe, Slack, OAuth 2.0
    'UNABLE_TO_LOCK_ROW', 'SERVER_UNAVAILABLE', 'serviceNotAvailable', 'circuit_breaking_exception', 'ServerTimeout',
    'overloaded_error', 'overloaded', 'api_error', 'server_error', 'internal_error', 'fatal_error',
    'service_unavailable', 'timeout_error', 'request_timeout', 'engine_overloaded', 'lock_timeout',
    'idempotency_key_in_use', 'processing_error', 'temporarily_unavailable', 'try_again_later',
    'issuer_not_available', 'reenter_transaction',
  ],
  authentication: [
    // AWS
    'AccessDenied', 'AccessDeniedException', 'UnrecognizedClientException', 'InvalidClientTokenId',
    'InvalidAccessKeyId', 'InvalidSignatureException', 'SignatureDoesNotMatch', 'ExpiredToken',
    'ExpiredTokenException', 'TokenRefreshRequired', 'MissingAuthenticationToken', 'IncompleteSignature',
    'AuthFailure', 'NotAuthorized', 'NotAuthorizedException', 'UnauthorizedOperation', 'Unauthorized',
    'UnauthorizedException', 'AuthorizationError', 'RequestExpired', 'RequestTimeTooSkewed',
    'RequestInTheFuture', 'InvalidToken', 'KMSAccessDeniedException', 'Forbidden',
    // Azure
    'AuthenticationFailed', 'AuthorizationFailure', 'AuthorizationPermissionMismatch',
    'AuthorizationResourceTypeMismatch', 'AuthorizationSourceIPMismatch', 'AuthorizationProtocolMismatch',
    'AuthorizationServiceMismatch', 'InvalidAuthenticationInfo', 'InvalidAuthenticationToken',
    'ExpiredAuthenticationToken', 'AuthorizationFailed', 'InsufficientAccountPermissions',
    'AccountIsDisabled', 'NoAuthenticationInformation', 'InvalidAuthenticationTokenTenant',
    'PermissionDenied',
    // google.rpc.Code / reasons
    'UNAUTHENTICATED', 'PERMISSION_DENIED', 'authError', 'insufficientPermissions', 'keyInvalid',
    'keyExpired', 'API_KEY_INVALID', 'ACCESS_TOKEN_EXPIRED', 'ACCESS_TOKEN_TYPE_UNSUPPORTED',
    'CREDENTIALS_MISSING', 'ipRefererBlocked', 'domainPolicy',
    // GraphQL (Apollo, Shopify, GitHub, Hasura)
    'FORBIDDEN', 'ACCESS_DENIED', 'INSUFFICIENT_SCOPES', 'invalid-jwt', 'access-denied', 'invalid-headers',
    // Slack
    'INVALID_SESSION_ID', 'INSUFFICIENT_ACCESS', 'INSUFFICIENT_ACCESS_OR_READONLY', 'AUTHENTICATION_ERROR',
    'AUTHENTICATION_FAILURE', 'NOT_AUTHORIZED', 'accessDenied', 'security_exception', 'invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'no_permission',
    'missing_scope', 'not_allowed_token_type', 'ekm_access_denied', 'team_access_not_granted',
    'org_login_required', 'two_factor_setup_required',
    // OpenAI, Anthropic, Stripe, OAuth 2.0
    'invalid_api_key', 'authentication_error', 'permission_error', 'access_terminated',
    'account_deactivated', 'api_key_expired', 'secret_key_required', 'platform_api_key_expired',
    'invalid_token', 'expired_token', 'insufficient_scope', 'invalid_grant', 'invalid_client',
    'unauthorized_client', 'access_denied', 'unauthenticated', 'bad_credentials',
  ],
  validation: [
    // AWS
    'ValidationException', 'ValidationError', 'InvalidParameterValue', 'InvalidParameterValueException',
    'InvalidParameterException', 'InvalidParameterCombination', 'InvalidParameter', 'MissingParameter',
    'MissingRequiredParameter', 'SerializationException', 'InvalidRequestException', 'InvalidRequest',
    'MalformedPolicyDocument', 'MalformedXML', 'MalformedQueryString', 'InvalidArgument', 'InvalidInput',
    'InvalidQueryParameter', 'EntityTooLarge', 'InvalidBucketName', 'KeyTooLongError', 'InvalidRange',
    'InvalidDigest', 'BadDigest', 'IncompleteBody',
    // Azure
    'InvalidHeaderValue', 'InvalidQueryParameterValue', 'InvalidUri', 'InvalidResourceName',
    'MissingRequiredHeader', 'MissingRequiredQueryParameter', 'InvalidRequestContent',
    'InvalidRequestFormat', 'InvalidTemplate', 'RequestBodyTooLarge', 'OutOfRangeInput',
    'OutOfRangeQueryParameterValue', 'UnsupportedHeader', 'InvalidXmlDocument', 'InvalidJson',
    'content_filter', 'BadRequest',
    // google.rpc.Code / reasons
    'INVALID_ARGUMENT', 'OUT_OF_RANGE', 'invalid', 'required', 'parseError', 'invalidQuery', 'badRequest',
    'responseTooLarge', 'invalidParameter',
    // GraphQL
    'BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'PERSISTED_QUERY_NOT_FOUND',
    'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE', 'MAX_COST_EXCEEDED',
    'MAX_NODE_LIMIT_EXCEEDED', 'validation-failed', 'parse-failed', 'constraint-violation', 'UNPROCESSABLE',
    // Slack, Stripe, OpenAI, Anthropic, OAuth 2.0
    'INVALID_FIELD', 'MALFORMED_QUERY', 'REQUIRED_FIELD_MISSING', 'INVALID_TYPE', 'JSON_PARSER_ERROR',
    'FIELD_CUSTOM_VALIDATION_EXCEPTION', 'STRING_TOO_LONG', 'invalidRequest', 'mapper_parsing_exception',
    'illegal_argument_exception', 'parsing_exception', 'Invalid', 'invalid_arguments', 'invalid_arg_name', 'invalid_array_arg', 'invalid_charset', 'invalid_form_data',
    'invalid_post_type', 'missing_post_type', 'invalid_json', 'json_not_object', 'too_many_attachments',
    'msg_too_long', 'no_text', 'invalid_blocks', 'invalid_cursor', 'validation_error', 'validation_failed',
    'invalid_argument', 'invalid_parameter', 'parameter_invalid_empty', 'parameter_invalid_integer',
    'parameter_invalid_string_blank', 'parameter_invalid_string_empty', 'parameter_missing',
    'parameter_unknown', 'parameters_exclusive', 'missing_parameter', 'missing_field',
    'context_length_exceeded', 'string_above_max_length', 
    'incorrect_cvc', 'incorrect_number', 'invalid_cvc', 'invalid_number', 'invalid_expiry_month',
    'invalid_expiry_year', 'incorrect_zip', 'amount_too_small', 'amount_too_large',
    'email_invalid', 'idempotency_error', 'request_too_large', 'invalid_scope', 'unsupported_grant_type',
    'unsupported_response_type', 'content_policy_violation', 'unsupported_value', 'invalid_value',
  ],
  permanent: [
    // AWS
    'ResourceNotFoundException', 'NoSuchKey', 'NoSuchBucket', 'NoSuchUpload', 'NoSuchEntity', 'NotFound',
    'NotFoundException', 'ConditionalCheckFailedException', 'ResourceInUseException',
    'ResourceAlreadyExistsException', 'AlreadyExistsException', 'EntityAlreadyExists', 'BucketAlreadyExists',
    'BucketAlreadyOwnedByYou', 'ConflictException', 'PreconditionFailed', 'MethodNotAllowed',
    'UnsupportedOperation', 'UnknownOperationException', 'InvalidAction', 'OptInRequired',
    'TransactionCanceledException', 'AWS.SimpleQueueService.NonExistentQueue', 'QueueDoesNotExist',
    // Azure
    'ResourceNotFound', 'ResourceGroupNotFound', 'BlobNotFound', 'ContainerNotFound', 'QueueNotFound',
    'TableNotFound', 'ShareNotFound', 'ContainerAlreadyExists', 'BlobAlreadyExists', 'ResourceAlreadyExists',
    'ConditionNotMet', 'LeaseIdMissing', 'LeaseAlreadyPresent', 'SubscriptionNotFound', 'DeploymentNotFound',
    'MissingSubscriptionRegistration', 'OperationNotAllowed', 'Conflict',
    // google.rpc.Code / reasons
    'NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'UNIMPLEMENTED', 'DATA_LOSS', 'CANCELLED',
    'notFound', 'conflict', 'duplicate', 'deleted', 'accessNotConfigured', 'SERVICE_DISABLED',
    // Slack, Stripe, OpenAI, generic
    'ENTITY_IS_DELETED', 'API_DISABLED_FOR_ORG', 'RESOURCE_NOT_FOUND', 'INSTRUMENT_DECLINED', 'PAYMENT_METHOD_ERROR',
    'itemNotFound', 'index_not_found_exception', 'version_conflict_engine_exception', 'AlreadyExists', 'Expired',
    'not_found', 'not_found_error', 'resource_missing', 'model_not_found', 'channel_not_found',
    'user_not_found', 'not_in_channel', 'is_archived', 'method_not_found', 'unknown_method',
    'method_deprecated', 'deprecated_endpoint', 'already_exists', 'resource_already_exists', 'gone',
    'unsupported_country_region_territory', 'card_error', 'card_declined', 'expired_card', 'insufficient_funds',
    'lost_card', 'stolen_card', 'do_not_honor', 'generic_decline', 'fraudulent', 'pickup_card', 'testmode_charges_only', 'account_invalid',
    'country_unsupported',
  ],
};

/**
 * Twilio's numeric codes whose meaning is not their HTTP status's (https://www.twilio.com/docs/api/errors,
 * one page per code): most arrive under a 400 that is not a malformed request. The `20xxx`
 * family mirrors HTTP statuses and is read as one (json-body-findings' twilio()).
 */
export const TWILIO_CODES: ReadonlyMap<number, ErrorClass> = new Map<number, ErrorClass>([
  [20003, 'authentication'], // Authentication Error - invalid username/password (errors/20003)
  [20005, 'authentication'], // Account not active (errors/20005)
  [20008, 'authentication'], // Cannot access this resource with Test Credentials (errors/20008)
  [21211, 'validation'], // Invalid 'To' Phone Number (errors/21211)
  [21606, 'validation'], // The 'From' phone number provided is not a valid message-capable number (errors/21606)
  [21614, 'validation'], // 'To' number is not a valid mobile number (errors/21614)
  [21408, 'permanent'], // Permission to send an SMS has not been enabled for the region (errors/21408)
  [21610, 'permanent'], // Attempt to send to unsubscribed recipient: the recipient replied STOP (errors/21610)
  [21612, 'permanent'], // The 'To' phone number is not currently reachable via SMS (errors/21612)
  [21611, 'rate_limit'], // This 'From' number has exceeded the maximum number of queued messages (errors/21611)
  [14107, 'rate_limit'], // SMS send rate limit exceeded (errors/14107)
]);

/** Lower-case, separators removed, a trailing `exception` dropped: `ThrottlingException` → `throttling`. */
export function normalizeCode(code: string): string {
  // Codes are few and repeat on every failure of a kind: remember them, within a bound.
  let norm = NORMALIZED.get(code);
  if (norm === undefined) {
    norm = normalize(code);
    if (NORMALIZED.size >= 4096) NORMALIZED.clear();
    NORMALIZED.set(code, norm);
  }
  return norm;
}

const NORMALIZED = new Map<string, string>();

function normalize(code: string): string {
  let out = '';
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 95 || c === 45 || c === 46 || c === 32) continue;
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : code[i];
  }
  return out.length > 9 && out.endsWith('exception') ? out.slice(0, -9) : out;
}

const MEANINGS = new Map<string, VendorMeaning>();
for (const [meaning, codes] of Object.entries(ENTRIES) as [VendorMeaning, string[]][]) {
  for (const code of codes) MEANINGS.set(normalizeCode(code), meaning);
}

/** `null`: a code already looked up and not known, so the miss is remembered too. */
const BY_RAW_CODE = new Map<string, VendorMeaning | null>();

/** Meaning of a vendor code, or `undefined` when the code is not one we know. */
export function vendorMeaning(code: string): VendorMeaning | undefined {
  if (code.length === 0 || code.length > 80) return undefined;
  // Every rankCode asks, often for the same few raw codes: one lookup of the code as sent
  // instead of two (its normalized form, then the table), within the same bound as NORMALIZED.
  let meaning = BY_RAW_CODE.get(code);
  if (meaning === undefined) {
    meaning = MEANINGS.get(normalizeCode(code)) ?? null;
    if (BY_RAW_CODE.size >= 4096) BY_RAW_CODE.clear();
    BY_RAW_CODE.set(code, meaning);
  }
  return meaning ?? undefined;
}

/** Order in which codes win when one response carries several: the one that stops everything first. */
const RANK: Record<VendorMeaning, number> = {
  rate_limit: 5,
  quota: 4,
  authentication: 3,
  transient: 2,
  validation: 1,
  permanent: 0,
};

/**
 * The vendor codes one reader found, ranked. The envelope's code is `ranked ?? named`: the
 * specific code whose meaning set the class, else the first specific code the response named.
 */
export interface RankedCodes {
  /** The first specific code named, known or not. */
  named: string | undefined;
  /** The last specific code that raised the class. */
  ranked: string | undefined;
  /** Class from the highest-ranked known code; unset when only the status can decide. */
  cls: ErrorClass | undefined;
  /** Exhausted quota or billing: never retryable, whatever the status says. */
  quota: boolean | undefined;
}

/**
 * Ranks one more code into a reader's codes. `specific` codes (an `error.code`, `__type`, a
 * GraphQL extension code) may become the envelope's code; category fields (`error.type`,
 * Google's canonical `status`, Stripe's `decline_code`) only inform the class, and the status
 * stays the code. Returns whether the code was recognized.
 */
export function rankCode(into: RankedCodes, code: string | undefined, specific = true): boolean {
  if (code === undefined || code === '') return false;
  if (specific) into.named ??= code;
  const meaning = vendorMeaning(code);
  if (meaning === undefined) return false;
  const current: VendorMeaning | undefined = into.quota ? QUOTA : into.cls;
  if (current !== undefined && RANK[current] >= RANK[meaning]) return true;
  if (specific) into.ranked = code;
  if (meaning === QUOTA) {
    into.cls = 'permanent';
    into.quota = true;
  } else {
    into.cls = meaning;
    into.quota = false;
  }
  return true;
}

/** `com.amazonaws.dynamodb.v20120810#ThrottlingException` / `ValidationException:http://…` → the bare name. */
export function awsErrorName(type: string): string {
  const hash = type.lastIndexOf('#');
  let name = hash >= 0 ? type.slice(hash + 1) : type;
  const colon = name.indexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  return name.trim();
}
