import { DynamoDBClient, GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, it } from 'vitest';
import { awsConfig } from './aws-clients.js';
import { ALL_SECRETS, closedPort, expectEnvelope, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * AWS SDK v3, JSON protocols: DynamoDB (awsJson1_0) and SQS (awsJson1_0 with awsQueryCompatible,
 * so the legacy query code also arrives in `x-amzn-query-error`). Error shapes:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html and
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/CommonErrors.html; the SDK
 * names the error after `__type` and keeps `$metadata.httpStatusCode`, `$fault`, `$response`
 * (node_modules/@smithy/smithy-client/dist-cjs: decorateServiceException, throwDefaultError).
 */

const vendor = useFakeVendor();

const ddb = (endpoint = vendor.url) => new DynamoDBClient(awsConfig(endpoint));
const sqs = () => new SQSClient(awsConfig(vendor.url));
const getItem = (c = ddb()) => c.send(new GetItemCommand({ TableName: 'orders', Key: { id: { S: '1' } } }));
const amzJson = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ1' };

function ddbError(status: number, type: string, message: string) {
  vendor.answer({
    status,
    headers: amzJson,
    body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message },
  });
}

describe('AWS SDK v3 JSON protocol: DynamoDB', () => {
  it('400 ProvisionedThroughputExceededException is a rate limit (DynamoDB Programming.Errors)', async () => {
    ddbError(
      400,
      'ProvisionedThroughputExceededException',
      'The level of configured provisioned throughput for the table was exceeded.',
    );
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'rate_limit', code: 'ProvisionedThroughputExceededException', source: 'sdk' },
      ALL_SECRETS,
    );
  });

  it('400 ThrottlingException is a rate limit (DynamoDB Programming.Errors)', async () => {
    ddbError(400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.');
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'rate_limit', code: 'ThrottlingException' },
      ALL_SECRETS,
    );
  });

  it('400 ResourceNotFoundException is permanent, not validation (DynamoDB Programming.Errors)', async () => {
    ddbError(400, 'ResourceNotFoundException', 'Requested resource not found');
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'permanent', code: 'ResourceNotFoundException' },
      ALL_SECRETS,
    );
  });

  it('400 ValidationException is validation (DynamoDB Programming.Errors)', async () => {
    ddbError(400, 'ValidationException', 'One or more parameter values were invalid');
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'validation', code: 'ValidationException' },
      ALL_SECRETS,
    );
  });

  it('400 UnrecognizedClientException is authentication (DynamoDB Programming.Errors)', async () => {
    ddbError(400, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'authentication', code: 'UnrecognizedClientException' },
      ALL_SECRETS,
    );
  });

  it('500 InternalServerError is transient (DynamoDB Programming.Errors)', async () => {
    ddbError(500, 'InternalServerError', 'Internal Server Error');
    expectEnvelope(
      await thrownBy(() => getItem()),
      { class: 'transient', code: 'InternalServerError' },
      ALL_SECRETS,
    );
  });

  it('400 TransactionInProgressException: another transaction with the token is running, retry (API_TransactWriteItems)', async () => {
    ddbError(
      400,
      'TransactionInProgressException',
      'The transaction with the given request token is already in progress.',
    );
    const err = await thrownBy(() =>
      ddb().send(
        new TransactWriteItemsCommand({
          TransactItems: [{ Delete: { TableName: 'orders', Key: { id: { S: '1' } } } }],
        }),
      ),
    );
    expectEnvelope(err, { class: 'rate_limit', code: 'TransactionInProgressException' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (NodeHttpHandler passes the socket error through)', async () => {
    const port = await closedPort();
    expectEnvelope(
      await thrownBy(() => getItem(ddb(`http://127.0.0.1:${port}`))),
      { class: 'transient', code: 'ECONNREFUSED' },
      ALL_SECRETS,
    );
  });
});

describe('AWS SDK v3 JSON protocol, query-compatible: SQS', () => {
  it('400 QueueDoesNotExist means the queue does not exist: permanent, not validation (SQS API_GetQueueUrl)', async () => {
    vendor.answer({
      status: 400,
      headers: { ...amzJson, 'x-amzn-query-error': 'AWS.SimpleQueueService.NonExistentQueue;Sender' },
      body: { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' },
    });
    const err = await thrownBy(() => sqs().send(new GetQueueUrlCommand({ QueueName: 'missing' })));
    expectEnvelope(err, { class: 'permanent', code: 'QueueDoesNotExist' }, ALL_SECRETS);
  });

  it('400 RequestThrottled is a rate limit (SQS API_SendMessage errors)', async () => {
    vendor.answer({
      status: 400,
      headers: { ...amzJson, 'x-amzn-query-error': 'RequestThrottled;Sender' },
      body: { __type: 'com.amazonaws.sqs#RequestThrottled', message: 'Request is throttled.' },
    });
    const err = await thrownBy(() =>
      sqs().send(new SendMessageCommand({ QueueUrl: `${vendor.url}/1/q`, MessageBody: 'x' })),
    );
    expectEnvelope(err, { class: 'rate_limit', code: 'RequestThrottled' }, ALL_SECRETS);
  });

  it('400 InvalidAddress is validation (SQS CommonErrors / API_SendMessage)', async () => {
    vendor.answer({
      status: 400,
      headers: { ...amzJson, 'x-amzn-query-error': 'InvalidAddress;Sender' },
      body: { __type: 'com.amazonaws.sqs#InvalidAddress', message: 'The specified ID is invalid.' },
    });
    const err = await thrownBy(() =>
      sqs().send(new SendMessageCommand({ QueueUrl: `${vendor.url}/1/q`, MessageBody: 'x' })),
    );
    expectEnvelope(err, { class: 'validation', code: 'InvalidAddress' }, ALL_SECRETS);
  });
});
