import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ListTopicsCommand, PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { describe, it } from 'vitest';
import { awsConfig } from './aws-clients.js';
import { ALL_SECRETS, expectEnvelope, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * AWS SDK v3, XML protocols: SNS (awsQuery: `<ErrorResponse><Error><Code>`,
 * https://docs.aws.amazon.com/sns/latest/api/CommonErrors.html) and S3 (restXml: `<Error><Code>`,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#ErrorCodeList). The SDK
 * names the error after `<Code>` (node_modules/@aws-sdk/core/dist-cjs protocols loadQueryErrorCode /
 * loadRestXmlErrorCode); a HEAD 404 has no body and is named "NotFound".
 */

const vendor = useFakeVendor();

const sns = () => new SNSClient(awsConfig(vendor.url));
const s3 = () => new S3Client({ ...awsConfig(vendor.url), forcePathStyle: true });
const xml = { 'content-type': 'text/xml', 'x-amzn-requestid': 'REQ2' };

function queryError(status: number, code: string, message: string, type = 'Sender') {
  vendor.answer({
    status,
    headers: xml,
    body: `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>REQ2</RequestId></ErrorResponse>`,
  });
}

function s3Error(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  vendor.answer({
    status,
    headers: { 'content-type': 'application/xml', 'x-amz-request-id': 'REQ3', ...headers },
    body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>REQ3</RequestId><HostId>host</HostId></Error>`,
  });
}

const publish = () =>
  sns().send(new PublishCommand({ TopicArn: 'arn:aws:sns:us-east-1:1:t', Message: 'hi' }));

describe('AWS SDK v3 awsQuery protocol: SNS', () => {
  it('400 Throttling is a rate limit (SNS CommonErrors)', async () => {
    queryError(400, 'Throttling', 'Rate exceeded');
    expectEnvelope(
      await thrownBy(publish),
      { class: 'rate_limit', code: 'Throttling', source: 'sdk' },
      ALL_SECRETS,
    );
  });

  it('404 NotFound is permanent (SNS API_Publish errors)', async () => {
    queryError(404, 'NotFound', 'Topic does not exist');
    expectEnvelope(await thrownBy(publish), { class: 'permanent', code: 'NotFound' }, ALL_SECRETS);
  });

  it('403 AuthorizationError is authentication (SNS API_Publish errors)', async () => {
    queryError(403, 'AuthorizationError', 'User is not authorized to perform SNS:Publish');
    expectEnvelope(
      await thrownBy(publish),
      { class: 'authentication', code: 'AuthorizationError' },
      ALL_SECRETS,
    );
  });

  it('400 InvalidParameter is validation (SNS API_Publish errors)', async () => {
    queryError(400, 'InvalidParameter', 'Invalid parameter: Message too long');
    expectEnvelope(await thrownBy(publish), { class: 'validation', code: 'InvalidParameter' }, ALL_SECRETS);
  });

  it('500 InternalError is transient (SNS CommonErrors)', async () => {
    queryError(500, 'InternalError', 'Internal error', 'Receiver');
    expectEnvelope(
      await thrownBy(() => sns().send(new ListTopicsCommand({}))),
      { class: 'transient', code: 'InternalError' },
      ALL_SECRETS,
    );
  });
});

describe('AWS SDK v3 restXml protocol: S3', () => {
  it('503 SlowDown is a rate limit (S3 ErrorResponses#ErrorCodeList)', async () => {
    s3Error(503, 'SlowDown', 'Please reduce your request rate.');
    const err = await thrownBy(() => s3().send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));
    expectEnvelope(err, { class: 'rate_limit', code: 'SlowDown' }, ALL_SECRETS);
  });

  it('409 OperationAborted: a conflicting operation is in progress, try again (S3 ErrorResponses#ErrorCodeList)', async () => {
    s3Error(
      409,
      'OperationAborted',
      'A conflicting conditional operation is currently in progress against this resource. Try again.',
    );
    const err = await thrownBy(() => s3().send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x' })));
    expectEnvelope(err, { class: 'transient', code: 'OperationAborted' }, ALL_SECRETS);
  });

  it('404 NoSuchKey is permanent (S3 ErrorResponses#ErrorCodeList)', async () => {
    s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const err = await thrownBy(() => s3().send(new GetObjectCommand({ Bucket: 'b', Key: 'missing' })));
    expectEnvelope(err, { class: 'permanent', code: 'NoSuchKey' }, ALL_SECRETS);
  });

  it('403 SignatureDoesNotMatch is authentication (S3 ErrorResponses#ErrorCodeList)', async () => {
    s3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
    const err = await thrownBy(() => s3().send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));
    expectEnvelope(err, { class: 'authentication', code: 'SignatureDoesNotMatch' }, ALL_SECRETS);
  });

  it('HEAD 404 without a body is NotFound, permanent (S3 API_HeadObject)', async () => {
    vendor.answer({ status: 404, headers: { 'x-amz-request-id': 'REQ4' } });
    const err = await thrownBy(() => s3().send(new HeadObjectCommand({ Bucket: 'b', Key: 'missing' })));
    expectEnvelope(err, { class: 'permanent', code: 'NotFound' }, ALL_SECRETS);
  });
});
