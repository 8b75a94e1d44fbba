import {
  ConditionalCheckFailedException,
  DynamoDBServiceException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

const metadata = (httpStatusCode: number) => ({
  httpStatusCode,
  requestId: 'REQ1',
  attempts: 3,
  totalRetryDelay: 200,
});

/** The SDK's default error path (throwDefaultError): the base exception with the wire name. */
function serviceError(name: string, httpStatusCode: number, fault: 'client' | 'server' = 'client'): Error {
  return new DynamoDBServiceException({
    name,
    $fault: fault,
    $metadata: metadata(httpStatusCode),
    message: name,
  });
}

describe('classifyError: AWS SDK v3', () => {
  it('classifies a ThrottlingException on a 400 as a rate limit', () => {
    const err = new ThrottlingException({ message: 'Rate exceeded', $metadata: metadata(400) });
    const env = classifyError(err);
    expect(env).toMatchObject({
      class: 'rate_limit',
      code: 'ThrottlingException',
      source: 'sdk',
      retryable: true,
    });
    expect(env.raw).toMatchObject({ name: 'ThrottlingException', httpStatusCode: 400, requestId: 'REQ1' });
  });

  it.each<[Error, string, ErrorClass]>([
    [
      new ProvisionedThroughputExceededException({ message: 'x', $metadata: metadata(400) }),
      'ProvisionedThroughputExceededException',
      'rate_limit',
    ],
    [
      new ConditionalCheckFailedException({ message: 'x', $metadata: metadata(400) }),
      'ConditionalCheckFailedException',
      'permanent',
    ],
    [
      new TransactionConflictException({ message: 'x', $metadata: metadata(400) }),
      'TransactionConflictException',
      'transient',
    ],
    [
      new ResourceNotFoundException({ message: 'x', $metadata: metadata(400) }),
      'ResourceNotFoundException',
      'permanent',
    ],
    [new InternalServerError({ message: 'x', $metadata: metadata(500) }), 'InternalServerError', 'transient'],
    [serviceError('ExpiredTokenException', 400), 'ExpiredTokenException', 'authentication'],
    [serviceError('UnrecognizedClientException', 400), 'UnrecognizedClientException', 'authentication'],
    [serviceError('InvalidSignatureException', 400), 'InvalidSignatureException', 'authentication'],
    [serviceError('AccessDeniedException', 400), 'AccessDeniedException', 'authentication'],
    [serviceError('ValidationException', 400), 'ValidationException', 'validation'],
    [serviceError('SlowDown', 503), 'SlowDown', 'rate_limit'],
    [serviceError('RequestLimitExceeded', 400), 'RequestLimitExceeded', 'rate_limit'],
    [serviceError('TooManyRequestsException', 429), 'TooManyRequestsException', 'rate_limit'],
    [serviceError('ServiceUnavailable', 503, 'server'), 'ServiceUnavailable', 'transient'],
    [serviceError('SomeNewServerFault', 500, 'server'), 'SomeNewServerFault', 'transient'],
    [serviceError('SomeNewClientFault', 409), 'SomeNewClientFault', 'permanent'],
    [serviceError('SomeNewAuthFault', 403), 'SomeNewAuthFault', 'authentication'],
  ])('%s', (err, code, cls) => {
    expect(classifyError(err)).toMatchObject({ class: cls, code, source: 'sdk' });
  });

  it('treats "Signature expired" as clock skew the SDK corrects (transient)', () => {
    const err = serviceError('InvalidSignatureException', 400);
    err.message = 'Signature expired: 20240101T000000Z is now earlier than …';
    expect(classifyError(err).class).toBe('transient');
  });

  it('honours $retryable.throttling on an unknown name', () => {
    const err = serviceError('CustomThrottle', 400);
    Object.assign(err, { $retryable: { throttling: true } });
    expect(classifyError(err).class).toBe('rate_limit');
  });

  it('reads Retry-After from the non-enumerable $response', () => {
    const err = serviceError('ThrottlingException', 400);
    Object.defineProperty(err, '$response', {
      value: { statusCode: 400, headers: { 'retry-after': '4' }, body: undefined },
      enumerable: false,
    });
    expect(classifyError(err)).toMatchObject({ class: 'rate_limit', retry_after: 4 });
  });

  it.each<[string, ErrorClass]>([
    ['ThrottlingError', 'rate_limit'],
    ['TransactionConflict', 'transient'],
    ['ConditionalCheckFailed', 'permanent'],
  ])('TransactionCanceledException with a %s reason → %s', (reason, cls) => {
    const err = new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: metadata(400),
      CancellationReasons: [{ Code: 'None' }, { Code: reason }],
    });
    expect(classifyError(err)).toMatchObject({ class: cls, code: 'TransactionCanceledException' });
  });

  it('classifies a network error the SDK decorated with $metadata by its Node code', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), {
      code: 'ECONNREFUSED',
      $metadata: { attempts: 3, totalRetryDelay: 300 },
    });
    expect(classifyError(err, { source: 'sdk' })).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'sdk',
    });
  });
});
