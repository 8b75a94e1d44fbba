import type { ErrorCase } from '../corpus-case.js';
import { DDB_SECRET_ACCESS_KEY, DDB_SESSION_TOKEN, type DynamoFault, dynamoError } from './real-dynamodb.js';

const SDK = '@aws-sdk/client-dynamodb 3.1169.0 real client (maxAttempts 1) against a local JSON 1.0 endpoint';
const SMITHY = '@smithy/core 3.41.1 retry/service-error-classification/constants.js';
const DDB_ERRORS =
  'DynamoDB error handling, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html';
const SECRETS = [DDB_SECRET_ACCESS_KEY, DDB_SESSION_TOKEN];
const NO = { retryable: false, retry_after: null } as const;

const ddb = (
  id: string,
  fault: DynamoFault,
  expected: ErrorCase['expected'],
  opts: Partial<ErrorCase> = {},
): ErrorCase => ({
  id: `aws-sdk-ddb-${id}`,
  origin: `${SDK}; ${DDB_ERRORS}`,
  build: () => dynamoError(`h6corpus_${id}`, fault),
  secrets: SECRETS,
  expected,
  ...opts,
});

/** AWS SDK v3 ServiceException instances built by the SDK's own deserializer. */
export const awsSdkCases: ErrorCase[] = [
  ddb(
    'provisioned-throughput',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
      message: 'The level of configured provisioned throughput for the table was exceeded.',
    },
    {
      class: 'rate_limit',
      code: 'ProvisionedThroughputExceededException',
      retryable: true,
      retry_after: null,
    },
    { origin: `${SDK}; ${SMITHY} THROTTLING_ERROR_CODES` },
  ),
  ddb(
    'throttling',
    {
      status: 400,
      type: 'com.amazon.coral.availability#ThrottlingException',
      message: 'Rate of requests exceeds the allowed throughput.',
    },
    { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: null },
    { origin: `${SDK}; ${SMITHY} THROTTLING_ERROR_CODES` },
  ),
  ddb(
    'request-limit-exceeded',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#RequestLimitExceeded',
      message: 'Throughput exceeds the current throughput limit for your account.',
    },
    { class: 'rate_limit', code: 'RequestLimitExceeded', retryable: true },
    { origin: `${SDK}; ${SMITHY} THROTTLING_ERROR_CODES` },
  ),
  ddb(
    'conditional-check-failed',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
      message: 'The conditional request failed',
    },
    { class: 'permanent', code: 'ConditionalCheckFailedException', ...NO },
    { note: 'Precondition on current state failed: the identical write cannot succeed; replan.' },
  ),
  ddb(
    'validation',
    {
      status: 400,
      type: 'com.amazon.coral.validate#ValidationException',
      message: '1 validation error detected: Value null at tableName',
    },
    { class: 'validation', code: 'ValidationException', ...NO },
  ),
  ddb(
    'unrecognized-client',
    {
      status: 400,
      type: 'com.amazon.coral.service#UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    },
    { class: 'authentication', code: 'UnrecognizedClientException', ...NO },
  ),
  ddb(
    'expired-token',
    {
      status: 400,
      type: 'com.amazon.coral.service#ExpiredTokenException',
      message: 'The security token included in the request is expired',
    },
    { class: 'authentication', code: 'ExpiredTokenException', ...NO },
  ),
  ddb(
    'access-denied',
    {
      status: 400,
      type: 'com.amazon.coral.service#AccessDeniedException',
      message:
        'User: arn:aws:iam::111122223333:user/app is not authorized to perform: dynamodb:DescribeTable',
    },
    { class: 'authentication', code: 'AccessDeniedException', ...NO },
  ),
  ddb(
    'resource-not-found',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException',
      message: 'Requested resource not found',
    },
    { class: 'permanent', code: 'ResourceNotFoundException', ...NO },
  ),
  ddb(
    'transaction-conflict',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
      message: 'Transaction is ongoing for the item',
    },
    { class: 'transient', code: 'TransactionConflictException', retryable: true },
    { note: 'DynamoDB docs list TransactionConflictException as "OK to retry? Yes".' },
  ),
  ddb(
    'replicated-write-conflict',
    {
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException',
      message: 'Write conflict with a concurrent replicated write',
    },
    { class: 'transient', code: 'ReplicatedWriteConflictException', retryable: true },
    { note: 'The SDK model marks this exception $retryable = {}.' },
  ),
  ddb(
    'internal-server-error',
    {
      status: 500,
      type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
      message: 'Internal server error',
    },
    { class: 'transient', code: 'InternalServerError', retryable: true },
  ),
  ddb(
    'service-unavailable-unmodeled',
    {
      status: 503,
      type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable',
      message: 'Service unavailable',
    },
    { class: 'transient', retryable: true },
    {
      note: 'Not modeled by the client: the SDK throws a generic DynamoDBServiceException with $fault "server".',
    },
  ),
  ddb(
    'throttling-with-retry-after',
    {
      status: 400,
      type: 'com.amazon.coral.availability#ThrottlingException',
      message: 'Rate exceeded',
      headers: { 'retry-after': '4' },
    },
    { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: 4 },
    {
      note: 'The SDK keeps the raw response headers in $response; a Retry-After there is the server naming the wait.',
    },
  ),
  ddb(
    'html-503-from-load-balancer',
    {
      status: 503,
      type: '',
      message: '',
      headers: { 'content-type': 'text/html', 'retry-after': '3' },
      rawBody: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>',
    },
    { class: 'transient', retryable: true, retry_after: 3 },
    {
      note: 'The SDK cannot parse the HTML and throws a SyntaxError ("Deserialization error") carrying $metadata.httpStatusCode 503 and a hidden $response.',
    },
  ),
  ddb(
    'serialization-exception',
    {
      status: 400,
      type: 'com.amazon.coral.service#SerializationException',
      message: 'Start of structure or map found where not expected.',
    },
    { class: 'validation', code: 'SerializationException', ...NO },
  ),
];
