import Anthropic from '@anthropic-ai/sdk';
import { createHttpHeaders, createPipelineRequest, RestError } from '@azure/core-rest-pipeline';
import { AxiosError, AxiosHeaders } from 'axios';
import { GaxiosError } from 'gaxios';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';

describe('classifyError: SDK errors that embed an HTTP response', () => {
  it('Stripe rate limit: status, Retry-After header and source sdk', () => {
    const err = Stripe.errors.StripeError.generate({
      type: 'rate_limit_error' as never,
      message: 'Too many requests',
      statusCode: 429,
      headers: { 'retry-after': '2', 'request-id': 'req_1' },
      requestId: 'req_1',
    });
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      source: 'sdk',
      retryable: true,
      retry_after: 2,
    });
  });

  it('Stripe card decline keeps the vendor code and honours Stripe-Should-Retry: false', () => {
    const err = Stripe.errors.StripeError.generate({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
      statusCode: 402,
      headers: { 'stripe-should-retry': 'false' },
    });
    const env = classifyError(err);
    expect(env).toMatchObject({
      class: 'permanent',
      code: 'card_declined',
      retryable: false,
      retry_after: null,
    });
    expect(env.message).toBe('Your card has insufficient funds.');
  });

  it('Stripe-Should-Retry: true turns a 409 lock conflict into a retryable failure', () => {
    const err = Stripe.errors.StripeError.generate({
      type: 'invalid_request_error',
      code: 'lock_timeout',
      message: 'This object cannot be accessed right now',
      statusCode: 409,
      headers: { 'stripe-should-retry': 'true' },
    });
    expect(classifyError(err)).toMatchObject({ retryable: true, class: 'transient' });
  });

  it('Stripe connection error (no response) is transient', () => {
    const err = new Stripe.errors.StripeConnectionError({
      message: 'An error occurred with our connection to Stripe.',
    });
    expect(classifyError(err)).toMatchObject({
      class: 'transient',
      // No socket error beneath: the SDK's class name is never the code (one code rule).
      code: 'connection_error',
      source: 'sdk',
    });
  });

  it('OpenAI RateLimitError with a Headers instance and retry-after-ms', () => {
    const headers = new Headers({ 'retry-after-ms': '1500', 'x-request-id': 'req_9' });
    const err = OpenAI.APIError.generate(
      429,
      {
        error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded', param: null },
      },
      undefined,
      headers,
    );
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      code: 'rate_limit_exceeded',
      source: 'sdk',
      retry_after: 1.5,
    });
  });

  it('OpenAI 429 insufficient_quota is not worth waiting for', () => {
    const err = OpenAI.APIError.generate(
      429,
      {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          param: null,
        },
      },
      undefined,
      new Headers(),
    );
    const env = classifyError(err);
    expect(env.code).toBe('insufficient_quota');
    expect(env.retryable).toBe(false);
  });

  it('OpenAI connection errors are transient; a caller abort is permanent', () => {
    expect(
      classifyError(new OpenAI.APIConnectionError({ cause: new Error('socket hang up') })),
    ).toMatchObject({
      class: 'transient',
      code: 'connection_error',
    });
    expect(classifyError(new OpenAI.APIConnectionTimeoutError())).toMatchObject({ class: 'transient' });
    expect(classifyError(new OpenAI.APIUserAbortError())).toMatchObject({
      class: 'permanent',
      code: 'ABORT_ERR',
    });
  });

  it('Anthropic 529 overloaded_error is transient with the vendor code', () => {
    const err = Anthropic.APIError.generate(
      529,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      new Headers({ 'x-should-retry': 'true' }),
    );
    expect(classifyError(err)).toMatchObject({
      class: 'transient',
      code: 'overloaded_error',
      retryable: true,
      source: 'sdk',
    });
  });

  it('axios: response status and AxiosHeaders decide; the config (Authorization) never reaches raw', () => {
    const err = new AxiosError(
      'Request failed with status code 503',
      'ERR_BAD_RESPONSE',
      { headers: new AxiosHeaders({ Authorization: 'Bearer sk-secret-token' }) } as never,
      {},
      {
        status: 503,
        statusText: '',
        headers: new AxiosHeaders({ 'retry-after': '3' }),
        data: 'down',
        config: {} as never,
      },
    );
    const env = classifyError(err);
    expect(env).toMatchObject({ class: 'transient', code: '503', retry_after: 3, source: 'http' });
    expect(JSON.stringify(env)).not.toContain('sk-secret-token');
  });

  it('axios without a response: ECONNABORTED timeout, ERR_NETWORK, ERR_CANCELED', () => {
    expect(classifyError(new AxiosError('timeout of 100ms exceeded', 'ECONNABORTED'))).toMatchObject({
      class: 'transient',
    });
    expect(classifyError(new AxiosError('Network Error', 'ERR_NETWORK'))).toMatchObject({
      class: 'transient',
    });
    expect(classifyError(new AxiosError('canceled', 'ERR_CANCELED'))).toMatchObject({ class: 'permanent' });
  });

  it('gaxios: a Google 403 rateLimitExceeded is a rate limit, not an auth failure', () => {
    const err = new GaxiosError(
      'Rate Limit Exceeded',
      { url: new URL('https://www.googleapis.com/drive/v3/files'), headers: {} } as never,
      {
        status: 403,
        statusText: 'Forbidden',
        headers: {},
        data: {
          error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] },
        },
        // gaxios keeps `data` only from a body it already read.
        bodyUsed: true,
        config: {},
      } as never,
    );
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      code: 'rateLimitExceeded',
      source: 'sdk',
    });
  });

  it('Azure RestError with HttpHeaders: ServerBusy is Azure Storage throttling', () => {
    const request = createPipelineRequest({ url: 'https://acct.blob.core.windows.net/c' });
    const err = new RestError('The server is busy.', {
      code: 'ServerBusy',
      statusCode: 503,
      request,
      response: { status: 503, headers: createHttpHeaders({ 'Retry-After': '6' }), request },
    });
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      code: 'ServerBusy',
      retry_after: 6,
      source: 'sdk',
    });
  });

  it('a thrown fetch Response (framework loaders) classifies by its status', () => {
    const res = new Response('nope', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    expect(classifyError(res)).toMatchObject({ class: 'authentication', code: '401' });
  });

  it('@slack/web-api: platform error body, rate-limited retryAfter, got TimeoutError code', () => {
    // Shapes of @slack/web-api src/errors.ts factories.
    const platform = Object.assign(new Error('An API error occurred: invalid_auth'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'invalid_auth' },
    });
    expect(classifyError(platform)).toMatchObject({
      class: 'authentication',
      code: 'invalid_auth',
      source: 'sdk',
    });
    const limited = Object.assign(new Error('A rate-limit has been reached'), {
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 30,
    });
    expect(classifyError(limited)).toMatchObject({ class: 'rate_limit', retry_after: 30 });
    // got v14 TimeoutError: name TimeoutError, code ETIMEDOUT, event 'request'.
    const gotTimeout = Object.assign(new Error("Timeout awaiting 'request' for 100ms"), {
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
      event: 'request',
    });
    expect(classifyError(gotTimeout)).toMatchObject({ class: 'transient', code: 'ETIMEDOUT' });
  });

  it('Vercel AI SDK APICallError: responseHeaders, text body and its own isRetryable verdict', () => {
    const err = Object.assign(new Error('Too Many Requests'), {
      name: 'AI_APICallError',
      statusCode: 429,
      responseHeaders: { 'retry-after': '9' },
      responseBody: '{"error":{"message":"Rate limit","type":"rate_limit_error"}}',
      isRetryable: true,
      url: 'https://api.example.com/v1/chat',
    });
    expect(classifyError(err)).toMatchObject({
      class: 'rate_limit',
      retryable: true,
      retry_after: 9,
      source: 'sdk',
    });
    const notRetryable = Object.assign(new Error('Bad Request'), {
      name: 'AI_APICallError',
      statusCode: 500,
      responseHeaders: {},
      responseBody: '',
      isRetryable: false,
    });
    expect(classifyError(notRetryable)).toMatchObject({ retryable: false, retry_after: null });
  });

  it('Elasticsearch ResponseError keeps the response in meta', () => {
    const err = Object.assign(new Error('Too Many Requests'), {
      name: 'ResponseError',
      meta: { statusCode: 429, headers: { 'retry-after': '1' }, body: '' },
    });
    expect(classifyError(err)).toMatchObject({ class: 'rate_limit', code: '429', retry_after: 1 });
  });

  it('SendGrid-style numeric code with a response object is an embedded status', () => {
    const err = Object.assign(new Error('Unauthorized'), {
      code: 401,
      response: {
        headers: { server: 'nginx' },
        body: { errors: [{ message: 'The provided authorization grant is invalid' }] },
      },
    });
    // The response has no status of its own: the numeric code on the error carries it.
    Object.assign(err.response, { statusCode: 401 });
    expect(classifyError(err)).toMatchObject({ class: 'authentication', code: '401' });
  });

  it('node-fetch FetchError without a system code: request-timeout is transient', () => {
    const err = Object.assign(new Error('network timeout at: https://x'), {
      name: 'FetchError',
      type: 'request-timeout',
    });
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'request-timeout', source: 'http' });
  });
});
