import { Metadata, status } from '@grpc/grpc-js';
import { callErrorFromStatus } from '@grpc/grpc-js/build/src/call.js';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

function grpcError(code: status, details = 'details', metadata = new Metadata()): Error {
  return callErrorFromStatus({ code, details, metadata }, 'at test');
}

describe('classifyError: gRPC (@grpc/grpc-js callErrorFromStatus)', () => {
  it.each<[status, string, ErrorClass]>([
    [status.CANCELLED, 'CANCELLED', 'permanent'],
    [status.UNKNOWN, 'UNKNOWN', 'transient'],
    [status.INVALID_ARGUMENT, 'INVALID_ARGUMENT', 'validation'],
    [status.DEADLINE_EXCEEDED, 'DEADLINE_EXCEEDED', 'transient'],
    [status.NOT_FOUND, 'NOT_FOUND', 'permanent'],
    [status.ALREADY_EXISTS, 'ALREADY_EXISTS', 'permanent'],
    [status.PERMISSION_DENIED, 'PERMISSION_DENIED', 'authentication'],
    [status.RESOURCE_EXHAUSTED, 'RESOURCE_EXHAUSTED', 'rate_limit'],
    [status.FAILED_PRECONDITION, 'FAILED_PRECONDITION', 'permanent'],
    [status.ABORTED, 'ABORTED', 'transient'],
    [status.OUT_OF_RANGE, 'OUT_OF_RANGE', 'validation'],
    [status.UNIMPLEMENTED, 'UNIMPLEMENTED', 'permanent'],
    [status.INTERNAL, 'INTERNAL', 'transient'],
    [status.UNAVAILABLE, 'UNAVAILABLE', 'transient'],
    [status.DATA_LOSS, 'DATA_LOSS', 'permanent'],
    [status.UNAUTHENTICATED, 'UNAUTHENTICATED', 'authentication'],
  ])('%i → %s %s', (code, name, cls) => {
    const env = classifyError(grpcError(code));
    expect(env).toMatchObject({ class: cls, code: name, source: 'rpc' });
    expect(env.raw).toMatchObject({ code, status: name, details: 'details' });
  });

  it('takes the server\'s details as the message, not grpc-js\'s "14 UNAVAILABLE: …" prefix', () => {
    const err = grpcError(status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED');
    expect(err.message).toBe('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED');
    expect(classifyError(err).message).toBe('No connection established. Last error: connect ECONNREFUSED');
  });

  it('reads the server pushback (grpc-retry-pushback-ms) as retry_after', () => {
    const md = new Metadata();
    md.set('grpc-retry-pushback-ms', '1500');
    expect(classifyError(grpcError(status.UNAVAILABLE, 'down', md))).toMatchObject({ retry_after: 1.5 });
  });

  it('reads a retry-after trailer when the server sends no pushback', () => {
    const md = new Metadata();
    md.set('retry-after', '3');
    expect(classifyError(grpcError(status.RESOURCE_EXHAUSTED, 'slow down', md))).toMatchObject({
      class: 'rate_limit',
      retry_after: 3,
    });
  });

  it('treats an oversized message (RESOURCE_EXHAUSTED) as validation, not a rate limit', () => {
    const err = grpcError(
      status.RESOURCE_EXHAUSTED,
      'Received message larger than max (5000000 vs. 4194304)',
    );
    expect(classifyError(err)).toMatchObject({ class: 'validation', code: 'RESOURCE_EXHAUSTED' });
  });
});
