import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

describe('classifyError: undici and fetch', () => {
  it.each<[Error, string, ErrorClass]>([
    [new errors.ConnectTimeoutError(), 'UND_ERR_CONNECT_TIMEOUT', 'transient'],
    [new errors.HeadersTimeoutError(), 'UND_ERR_HEADERS_TIMEOUT', 'transient'],
    [new errors.BodyTimeoutError(), 'UND_ERR_BODY_TIMEOUT', 'transient'],
    [new errors.SocketError('other side closed'), 'UND_ERR_SOCKET', 'transient'],
    [new errors.RequestAbortedError(), 'UND_ERR_ABORTED', 'permanent'],
    [new errors.RequestContentLengthMismatchError(), 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'validation'],
    [new errors.ResponseContentLengthMismatchError(), 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'transient'],
    [new errors.InvalidArgumentError('invalid method'), 'UND_ERR_INVALID_ARG', 'validation'],
    [new errors.ClientDestroyedError(), 'UND_ERR_DESTROYED', 'permanent'],
  ])('%s → %s', (err, code, cls) => {
    expect(classifyError(err)).toMatchObject({ class: cls, code, source: 'http' });
  });

  it('lets an embedded response decide for ResponseError (status + headers)', () => {
    const err = new errors.ResponseError('Response Error', 429, {
      headers: { 'retry-after': '5' },
      body: { message: 'slow down' },
    });
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      retryable: true,
      retry_after: 5,
      source: 'http',
    });
  });

  it('classifies `TypeError: fetch failed` by its cause, keeping both messages', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const err = new TypeError('fetch failed', { cause });
    const env = classifyError(err);
    expect(env).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'http' });
    expect(env.message).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:9');
  });

  it('follows a nested cause and an AggregateError of attempts', () => {
    const attempts = new AggregateError([
      Object.assign(new Error('connect ECONNREFUSED ::1:9'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    ]);
    const err = new TypeError('fetch failed', { cause: attempts });
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED', source: 'http' });
    const timeout = new TypeError('fetch failed', { cause: new errors.ConnectTimeoutError() });
    expect(classifyError(timeout)).toMatchObject({ class: 'transient', code: 'UND_ERR_CONNECT_TIMEOUT' });
  });

  it('treats a causeless fetch failure as transient', () => {
    expect(classifyError(new TypeError('fetch failed'))).toMatchObject({
      class: 'transient',
      code: 'fetch_failed',
    });
  });

  it('separates AbortSignal.timeout() (transient) from a caller abort (permanent)', async () => {
    const timeout = AbortSignal.timeout(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(classifyError(timeout.reason)).toMatchObject({ class: 'transient', code: 'TimeoutError' });
    const controller = new AbortController();
    controller.abort();
    expect(classifyError(controller.signal.reason)).toMatchObject({ class: 'permanent', code: 'AbortError' });
  });
});
