import type { HttpCase } from '../corpus-case.js';

/** The AWS SDK's own retry classification: @smithy/core 3.41.1 retry/service-error-classification/constants.js. */
const SMITHY_THROTTLING =
  '@smithy/core 3.41.1 dist-es/submodules/retry/service-error-classification/constants.js THROTTLING_ERROR_CODES';
const JSON10 =
  'AWS JSON 1.0 protocol, https://smithy.io/2.0/aws/protocols/aws-json-1_0-protocol.html#operation-error-serialization';
const JSON11 = 'AWS JSON 1.1 protocol, https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html';
const RESTJSON =
  'AWS restJson1 protocol, https://smithy.io/2.0/aws/protocols/aws-restjson1-protocol.html (X-Amzn-Errortype)';
const S3 = 'Amazon S3 docs, https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html';
const QUERY =
  'AWS query protocol, https://smithy.io/2.0/aws/protocols/aws-query-protocol.html#operation-error-serialization';

const s3Error = (code: string, message: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>4442587FB7D0A2F9</RequestId><HostId>Uuag1LuByRx9e6j5Onimru9pO4ZVKnJ2Qz7/C1NPcfTWAtRPfTaOFg==</HostId></Error>`;

const ddbHeaders = {
  'x-amzn-requestid': 'R0N6IT9SA4AUNVUQ6F9LQ8PL6NVV4KQNSO5AEMVJF66Q9ASUAAJG',
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-crc32': '1434416584',
};

/** AWS error responses in every wire protocol: JSON 1.0/1.1, restJson1, query/EC2 XML, S3 XML. */
export const awsCases: HttpCase[] = [
  {
    id: 'aws-json10-dynamodb-provisioned-throughput-400',
    origin: `${JSON10}; DynamoDB docs https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html; ${SMITHY_THROTTLING}`,
    input: {
      status: 400,
      headers: ddbHeaders,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
        message:
          'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
      },
    },
    expected: {
      class: 'rate_limit',
      code: 'ProvisionedThroughputExceededException',
      retryable: true,
      retry_after: null,
    },
  },
  {
    id: 'aws-json10-dynamodb-throttling-coral-namespace',
    origin: `${JSON10} (__type with com.amazon.coral.availability# prefix); ${SMITHY_THROTTLING}`,
    input: {
      status: 400,
      headers: ddbHeaders,
      body: '{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}',
    },
    expected: { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: null },
  },
  {
    id: 'aws-json10-cloudwatch-throttling-namespace',
    origin: `${JSON10} (__type "com.amazonaws.cloudwatch.v2013_01_16#Throttling"); ${SMITHY_THROTTLING} ("Throttling")`,
    input: {
      status: 400,
      headers: {
        'x-amzn-requestid': 'f3a1',
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-query-error': 'Throttling;Sender',
      },
      body: { __type: 'com.amazonaws.cloudwatch.v2013_01_16#Throttling', message: 'Rate exceeded' },
    },
    expected: { class: 'rate_limit', code: 'Throttling', retryable: true, retry_after: null },
  },
  {
    id: 'aws-json11-kinesis-provisioned-throughput',
    origin: `${JSON11}; Kinesis PutRecord errors https://docs.aws.amazon.com/kinesis/latest/APIReference/API_PutRecord.html`,
    input: {
      status: 400,
      headers: { 'x-amzn-RequestId': 'c5b1e4f2', 'Content-Type': 'application/x-amz-json-1.1' },
      body: {
        __type: 'ProvisionedThroughputExceededException',
        message: 'Rate exceeded for shard shardId-000000000001 in stream orders under account 111122223333.',
      },
    },
    expected: {
      class: 'rate_limit',
      code: 'ProvisionedThroughputExceededException',
      retryable: true,
      retry_after: null,
    },
  },
  {
    id: 'aws-json11-kms-throttling',
    origin: `${JSON11}; KMS docs https://docs.aws.amazon.com/kms/latest/developerguide/throttling.html`,
    input: {
      status: 400,
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: { __type: 'ThrottlingException', message: 'Rate exceeded' },
    },
    expected: { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: null },
  },
  {
    id: 'aws-restjson-lambda-too-many-requests-429',
    origin: `${RESTJSON}; Lambda Invoke errors https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html#API_Invoke_Errors`,
    input: {
      status: 429,
      headers: {
        'x-amzn-errortype':
          'TooManyRequestsException:http://internal.amazon.com/coral/com.amazonaws.awsgatewaylambda/',
        'x-amzn-requestid': '0d2a7b61',
        'content-type': 'application/json',
      },
      body: {
        Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded',
        Type: 'User',
        message: 'Rate Exceeded.',
      },
    },
    expected: { class: 'rate_limit', code: 'TooManyRequestsException', retryable: true, retry_after: null },
  },
  {
    id: 'aws-restjson-errortype-header-throttling-on-400',
    origin: `${RESTJSON} (error name only in the X-Amzn-Errortype header); ${SMITHY_THROTTLING}`,
    input: {
      status: 400,
      headers: {
        'X-Amzn-Errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      },
      body: { message: 'Too many requests, please wait before trying again.' },
    },
    expected: { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: null },
  },
  {
    id: 'aws-restjson-bedrock-429-throttling',
    origin: `${RESTJSON}; Bedrock InvokeModel errors https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html`,
    input: {
      status: 429,
      headers: {
        'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      },
      body: {
        message: 'Too many requests, please wait before trying again. You have sent too many requests.',
      },
    },
    expected: { class: 'rate_limit', code: 'ThrottlingException', retryable: true, retry_after: null },
  },
  {
    id: 'aws-query-sqs-request-throttled',
    origin: `${QUERY}; ${SMITHY_THROTTLING} ("RequestThrottled")`,
    input: {
      status: 400,
      headers: { 'content-type': 'text/xml' },
      body: '<?xml version="1.0"?><ErrorResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/"><Error><Type>Sender</Type><Code>RequestThrottled</Code><Message>Request is throttled.</Message><Detail/></Error><RequestId>42d59b56-7407-4c4a-be0f-4c88daeea257</RequestId></ErrorResponse>',
    },
    expected: { class: 'rate_limit', code: 'RequestThrottled', retryable: true, retry_after: null },
  },
  {
    id: 'aws-ec2-request-limit-exceeded-503',
    origin: `EC2 query API, https://docs.aws.amazon.com/AWSEC2/latest/APIReference/throttling.html (503 RequestLimitExceeded); ${SMITHY_THROTTLING}`,
    input: {
      status: 503,
      headers: { 'content-type': 'text/xml;charset=UTF-8' },
      body: '<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>ea966190-f9aa-478e-9ede-example</RequestID></Response>',
    },
    expected: { class: 'rate_limit', code: 'RequestLimitExceeded', retryable: true, retry_after: null },
  },
  {
    id: 'aws-s3-slow-down-503',
    origin: `${S3} (503 SlowDown); ${SMITHY_THROTTLING} ("SlowDown")`,
    input: {
      status: 503,
      headers: {
        'x-amz-request-id': '4442587FB7D0A2F9',
        'x-amz-id-2': 'Uuag1LuByRx9e6j5Onimru9pO4Z',
        'content-type': 'application/xml',
      },
      body: s3Error('SlowDown', 'Please reduce your request rate.'),
    },
    expected: { class: 'rate_limit', code: 'SlowDown', retryable: true, retry_after: null },
  },
  {
    id: 'aws-s3-slow-down-buffer-body',
    origin: `${S3} (503 SlowDown, body still a raw Buffer from node:http)`,
    input: {
      status: 503,
      headers: { 'content-type': 'application/xml' },
      body: Buffer.from(s3Error('SlowDown', 'Please reduce your request rate.')),
    },
    expected: { class: 'rate_limit', code: 'SlowDown', retryable: true, retry_after: null },
  },
  {
    id: 'aws-s3-access-denied-403',
    origin: `${S3} (403 AccessDenied)`,
    input: {
      status: 403,
      headers: { 'content-type': 'application/xml' },
      body: s3Error('AccessDenied', 'Access Denied'),
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'aws-s3-expired-token-400',
    origin: `${S3} (400 ExpiredToken: "The provided token has expired.")`,
    note: 'HTTP 400 but the credential expired: refresh once, then escalate.',
    input: {
      status: 400,
      headers: { 'content-type': 'application/xml' },
      body: s3Error('ExpiredToken', 'The provided token has expired.'),
    },
    expected: { class: 'authentication', code: 'ExpiredToken', retryable: false, retry_after: null },
  },
  {
    id: 'aws-s3-no-such-key-404',
    origin: `${S3} (404 NoSuchKey)`,
    input: { status: 404, headers: {}, body: s3Error('NoSuchKey', 'The specified key does not exist.') },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'aws-s3-internal-error-500',
    origin: `${S3} (500 InternalError: "We encountered an internal error. Please try again.")`,
    input: {
      status: 500,
      headers: {},
      body: s3Error('InternalError', 'We encountered an internal error. Please try again.'),
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'aws-json10-dynamodb-validation-exception',
    origin: `${JSON10}; DynamoDB ValidationException`,
    input: {
      status: 400,
      headers: ddbHeaders,
      body: {
        __type: 'com.amazon.coral.validate#ValidationException',
        message: 'One or more parameter values were invalid: Missing the key pk in the item',
      },
    },
    expected: { class: 'validation', code: 'ValidationException', retryable: false, retry_after: null },
  },
  {
    id: 'aws-json10-dynamodb-unrecognized-client',
    origin: `${JSON10}; DynamoDB UnrecognizedClientException ("The security token included in the request is invalid.")`,
    input: {
      status: 400,
      headers: ddbHeaders,
      body: {
        __type: 'com.amazon.coral.service#UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      },
    },
    expected: {
      class: 'authentication',
      code: 'UnrecognizedClientException',
      retryable: false,
      retry_after: null,
    },
  },
  {
    id: 'aws-json10-dynamodb-conditional-check-failed',
    origin: `${JSON10}; DynamoDB ConditionalCheckFailedException`,
    note: 'A failed precondition on current state: repeating the identical write cannot succeed; replan (permanent).',
    input: {
      status: 400,
      headers: ddbHeaders,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
        message: 'The conditional request failed',
      },
    },
    expected: {
      class: 'permanent',
      code: 'ConditionalCheckFailedException',
      retryable: false,
      retry_after: null,
    },
  },
  {
    id: 'aws-json10-dynamodb-internal-server-error',
    origin: `${JSON10}; DynamoDB InternalServerError (HTTP 500)`,
    input: {
      status: 500,
      headers: ddbHeaders,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
        message: 'Internal server error',
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'aws-sts-query-expired-token',
    origin: `${QUERY}; STS docs https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html (ExpiredTokenException)`,
    input: {
      status: 400,
      headers: { 'content-type': 'text/xml' },
      body: '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>ExpiredToken</Code><Message>The security token included in the request is expired</Message></Error><RequestId>b1f2</RequestId></ErrorResponse>',
    },
    expected: { class: 'authentication', code: 'ExpiredToken', retryable: false, retry_after: null },
  },
];
