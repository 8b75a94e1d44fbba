import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** @prisma/client runtime: name set in the constructor, `code` (known request) or `errorCode` (init). */
function prismaKnown(code: string, message = 'prisma failed'): Error {
  return Object.assign(new Error(message), {
    name: 'PrismaClientKnownRequestError',
    code,
    clientVersion: '6.1.0',
  });
}

/** kafkajs src/errors.js KafkaJSProtocolError: type, code, retriable from the protocol error table. */
function kafkaProtocol(type: string, code: number, retriable: boolean): Error {
  return Object.assign(new Error(type), { name: 'KafkaJSProtocolError', type, code, retriable });
}

describe('classifyError: Prisma, KafkaJS, pg client texts, aws-sdk v2', () => {
  it.each<[string, ErrorClass]>([
    ['P2002', 'validation'],
    ['P2003', 'validation'],
    ['P2025', 'permanent'],
    ['P2021', 'permanent'],
    ['P2024', 'transient'],
    ['P2034', 'transient'],
    ['P1000', 'authentication'],
  ])('Prisma %s → %s', (code, cls) => {
    expect(classifyError(prismaKnown(code))).toMatchObject({ class: cls, code, source: 'db' });
  });

  it('Prisma initialization P1001 (errorCode) is transient; a validation error is validation', () => {
    const init = Object.assign(new Error("Can't reach database server"), {
      name: 'PrismaClientInitializationError',
      errorCode: 'P1001',
    });
    expect(classifyError(init)).toMatchObject({ class: 'transient', code: 'P1001' });
    const invalid = Object.assign(new Error('Unknown argument `emial`'), {
      name: 'PrismaClientValidationError',
    });
    expect(classifyError(invalid)).toMatchObject({
      class: 'validation',
      code: 'PrismaClientValidationError',
    });
  });

  it.each<[string, number, boolean, ErrorClass]>([
    ['NOT_LEADER_FOR_PARTITION', 6, true, 'transient'],
    ['TOPIC_AUTHORIZATION_FAILED', 29, false, 'authentication'],
    ['MESSAGE_TOO_LARGE', 10, false, 'validation'],
    ['THROTTLING_QUOTA_EXCEEDED', 89, true, 'rate_limit'],
    ['UNKNOWN_SERVER_ERROR', -1, false, 'permanent'],
  ])('KafkaJS %s → %s', (type, code, retriable, cls) => {
    expect(classifyError(kafkaProtocol(type, code, retriable))).toMatchObject({
      class: cls,
      code: type,
      source: 'messaging',
    });
  });

  it.each<[string, ErrorClass, string]>([
    ['Connection terminated unexpectedly', 'transient', 'CONNECTION_TERMINATED'],
    ['timeout exceeded when trying to connect', 'transient', 'POOL_CONNECT_TIMEOUT'],
    ['Client was closed and is not queryable', 'permanent', 'CLIENT_CLOSED'],
  ])('pg plain Error "%s" → %s', (message, cls, code) => {
    expect(classifyError(new Error(message), { system: 'postgresql' })).toMatchObject({
      class: cls,
      code,
      source: 'db',
    });
  });

  it('aws-sdk v2 errors keep the service name in `code`', () => {
    const v2 = (code: string, statusCode: number, retryable: boolean) =>
      Object.assign(new Error(code), { code, statusCode, retryable, requestId: 'R', time: new Date() });
    expect(classifyError(v2('ProvisionedThroughputExceededException', 400, true))).toMatchObject({
      class: 'rate_limit',
      code: 'ProvisionedThroughputExceededException',
      source: 'sdk',
    });
    expect(classifyError(v2('ExpiredTokenException', 400, false))).toMatchObject({ class: 'authentication' });
    expect(classifyError(v2('ConditionalCheckFailedException', 400, false))).toMatchObject({
      class: 'permanent',
    });
  });

  it('a failed credentials chain (@smithy/property-provider) is authentication', () => {
    const err = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
      tryNextLink: false,
    });
    expect(classifyError(err)).toMatchObject({
      class: 'authentication',
      code: 'CredentialsProviderError',
      source: 'sdk',
    });
  });

  it("an unknown library's own retryable: true makes it transient", () => {
    const err = Object.assign(new Error('try later'), { code: 'E_BUSY_BACKEND', retryable: true });
    expect(classifyError(err, { source: 'sdk' })).toMatchObject({
      class: 'transient',
      code: 'E_BUSY_BACKEND',
      source: 'sdk',
    });
  });
});
