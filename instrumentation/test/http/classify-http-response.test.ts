import { describe, expect, it } from 'vitest';
import { classifyHttpResponse } from '../../src/http/classify-http-response.js';
import type { Envelope, HttpResponseLike } from '../../src/types.js';

const NOW = Date.parse('2026-11-29T15:00:00Z');
const nowSec = NOW / 1000;
type Want = Partial<Pick<Envelope, 'class' | 'code' | 'message' | 'retryable' | 'retry_after'>>;

const cases: Array<[string, HttpResponseLike, Want | null]> = [
  // status table
  ['200 empty', { status: 200 }, null],
  ['304', { status: 304, headers: { etag: '"x"' } }, null],
  ['400', { status: 400 }, { class: 'validation', code: '400', retryable: false, retry_after: null }],
  ['401', { status: 401 }, { class: 'authentication', code: '401', retryable: false }],
  ['404', { status: 404 }, { class: 'permanent', code: '404', retryable: false }],
  ['408', { status: 408 }, { class: 'transient', code: '408', retryable: true }],
  ['409', { status: 409 }, { class: 'permanent', retryable: false }],
  ['501', { status: 501 }, { class: 'permanent', retryable: false }],
  ['522 Cloudflare', { status: 522 }, { class: 'transient', code: '522', retryable: true }],
  ['529', { status: 529 }, { class: 'transient', retryable: true }],
  ['599', { status: 599 }, { class: 'transient', retryable: true }],
  ['511', { status: 511 }, { class: 'authentication', retryable: false }],
  // retry signals
  [
    '429 Retry-After',
    { status: 429, headers: { 'Retry-After': '12' } },
    { class: 'rate_limit', retry_after: 12 },
  ],
  [
    '503 Retry-After date',
    { status: 503, headers: { 'retry-after': new Date(NOW + 45_000).toUTCString() } },
    { class: 'transient', retry_after: 45 },
  ],
  [
    '400 ignores Retry-After',
    { status: 400, headers: { 'retry-after': '9' } },
    { class: 'validation', retry_after: null },
  ],
  [
    'x-should-retry false',
    { status: 503, headers: { 'x-should-retry': 'false' } },
    { class: 'transient', retryable: false, retry_after: null },
  ],
  [
    'stripe-should-retry true on 409',
    { status: 409, headers: { 'Stripe-Should-Retry': 'true' } },
    { class: 'transient', retryable: true },
  ],
  [
    'RateLimit draft header',
    { status: 429, headers: { ratelimit: 'limit=100, remaining=0, reset=17' } },
    { retry_after: 17 },
  ],
  [
    'RateLimit draft-08 header',
    { status: 429, headers: { ratelimit: '"default";r=0;t=9' } },
    { retry_after: 9 },
  ],
  [
    'x-ratelimit-reset epoch',
    { status: 429, headers: { 'x-ratelimit-reset': String(nowSec + 30) } },
    { retry_after: 30 },
  ],
  ['x-ratelimit-reset delta', { status: 429, headers: { 'x-ratelimit-reset': '20' } }, { retry_after: 20 }],
  [
    'x-ratelimit-reset epoch past',
    { status: 429, headers: { 'x-ratelimit-reset': String(nowSec - 30) } },
    { retry_after: null },
  ],
  [
    'OpenAI duration reset',
    {
      status: 429,
      headers: {
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '6m0s',
        'x-ratelimit-remaining-requests': '10',
        'x-ratelimit-reset-requests': '1s',
      },
    },
    { retry_after: 360 },
  ],
  [
    'Discord body retry_after',
    { status: 429, body: { message: 'You are being rate limited.', retry_after: 64.57, global: false } },
    { class: 'rate_limit', retry_after: 64.57 },
  ],
  // rate limits on other statuses
  [
    'GitHub 403 remaining 0',
    {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSec + 60) },
      body: { message: 'API rate limit exceeded for user ID 1.' },
    },
    { class: 'rate_limit', code: '403', retryable: true, retry_after: 60 },
  ],
  [
    'GitHub secondary limit',
    {
      status: 403,
      body: '{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}',
    },
    { class: 'rate_limit', retry_after: null },
  ],
  [
    'plain 403 stays auth',
    {
      status: 403,
      headers: { 'x-ratelimit-remaining': '4999' },
      body: { message: 'Resource not accessible by integration' },
    },
    { class: 'authentication' },
  ],
  [
    'AWS 400 ThrottlingException __type',
    {
      status: 400,
      body: '{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate exceeded"}',
    },
    { class: 'rate_limit', code: 'ThrottlingException', retryable: true },
  ],
  [
    'AWS x-amzn-errortype',
    {
      status: 400,
      headers: {
        'x-amzn-errortype':
          'ThrottlingException:http://internal.amazon.com/coral/com.amazon.coral.availability/',
      },
      body: { message: 'Rate exceeded' },
    },
    { class: 'rate_limit', code: 'ThrottlingException' },
  ],
  [
    'S3 SlowDown XML',
    {
      status: 503,
      body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
    },
    { class: 'rate_limit', code: 'SlowDown' },
  ],
  [
    'EC2 RequestLimitExceeded',
    {
      status: 503,
      body: '<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors></Response>',
    },
    { class: 'rate_limit', code: 'RequestLimitExceeded' },
  ],
  [
    'S3 200 with Error body',
    {
      status: 200,
      body: '<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>',
    },
    { class: 'transient', code: 'InternalError' },
  ],
  [
    'Azure x-ms-error-code ServerBusy',
    { status: 503, headers: { 'x-ms-error-code': 'ServerBusy' } },
    { class: 'rate_limit', code: 'ServerBusy' },
  ],
  [
    'Twilio 20429',
    {
      status: 429,
      body: {
        code: 20429,
        message: 'Too Many Requests',
        more_info: 'https://www.twilio.com/docs/errors/20429',
        status: 429,
      },
    },
    { class: 'rate_limit', code: '20429' },
  ],
  // quota and billing: waiting will not fix it
  [
    'OpenAI insufficient_quota',
    {
      status: 429,
      headers: { 'retry-after': '20' },
      body: {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    },
    { class: 'permanent', code: 'insufficient_quota', retryable: false, retry_after: null },
  ],
  [
    'OpenAI rate_limit_exceeded',
    {
      status: 429,
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    },
    { class: 'rate_limit', code: 'rate_limit_exceeded', retryable: true },
  ],
  [
    'Google dailyLimitExceeded',
    {
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'Daily Limit Exceeded',
          errors: [{ reason: 'dailyLimitExceeded', domain: 'usageLimits' }],
        },
      },
    },
    { class: 'permanent', code: 'dailyLimitExceeded', retryable: false },
  ],
  [
    'Google userRateLimitExceeded 403',
    {
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'User Rate Limit Exceeded',
          errors: [{ reason: 'userRateLimitExceeded' }],
        },
      },
    },
    { class: 'rate_limit', code: 'userRateLimitExceeded' },
  ],
  [
    'Google RetryInfo',
    {
      status: 429,
      body: {
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'q',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }],
        },
      },
    },
    { class: 'rate_limit', code: '429', retry_after: 37 },
  ],
  [
    'Google PERMISSION_DENIED',
    { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'denied' } } },
    { class: 'authentication', code: '403' },
  ],
  // silent failures in 2xx
  [
    'Slack ratelimited',
    { status: 200, body: { ok: false, error: 'ratelimited' } },
    { class: 'rate_limit', code: 'ratelimited', retryable: true },
  ],
  [
    'Slack invalid_auth',
    { status: 200, body: '{"ok":false,"error":"invalid_auth"}' },
    { class: 'authentication', code: 'invalid_auth' },
  ],
  [
    'Slack token_revoked',
    { status: 200, body: { ok: false, error: 'token_revoked' } },
    { class: 'authentication', code: 'token_revoked' },
  ],
  [
    'Slack invalid_* prefix',
    { status: 200, body: { ok: false, error: 'invalid_ts_latest' } },
    { class: 'validation', code: 'invalid_ts_latest' },
  ],
  [
    'Slack unknown error',
    { status: 200, body: { ok: false, error: 'cant_update_message' } },
    { class: 'permanent', code: 'cant_update_message' },
  ],
  ['Slack ok true', { status: 200, body: { ok: true, channel: 'C1' } }, null],
  [
    'GraphQL UNAUTHENTICATED',
    {
      status: 200,
      body: { data: null, errors: [{ message: 'no', extensions: { code: 'UNAUTHENTICATED' } }] },
    },
    { class: 'authentication', code: 'UNAUTHENTICATED' },
  ],
  [
    'GraphQL GRAPHQL_VALIDATION_FAILED',
    {
      status: 400,
      body: {
        errors: [{ message: 'Cannot query field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
      },
    },
    { class: 'validation', code: 'GRAPHQL_VALIDATION_FAILED' },
  ],
  [
    'GraphQL INTERNAL_SERVER_ERROR',
    { status: 200, body: { errors: [{ message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] } },
    { class: 'transient', retryable: true },
  ],
  [
    'Shopify THROTTLED with cost',
    {
      status: 200,
      body: {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: {
          cost: {
            requestedQueryCost: 202,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 2, restoreRate: 50 },
          },
        },
      },
    },
    { class: 'rate_limit', code: 'THROTTLED', retry_after: 4 },
  ],
  [
    'GitHub GraphQL RATE_LIMITED type',
    { status: 200, body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] } },
    { class: 'rate_limit', code: 'RATE_LIMITED' },
  ],
  [
    'JSON-RPC -32005 limit',
    {
      status: 200,
      body: { jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'daily request count exceeded' } },
    },
    { class: 'rate_limit', code: '-32005' },
  ],
  [
    'JSON-RPC 429 code',
    { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: 429, message: 'compute units exceeded' } } },
    { class: 'rate_limit', code: '429' },
  ],
  [
    '2xx success:false with words',
    { status: 200, body: { success: false, message: 'Invalid API key' } },
    { class: 'authentication' },
  ],
  ['2xx JSON text without markers', { status: 200, body: '{"id":"cus_1","email":"a@b.c"}' }, null],
  ['2xx HTML', { status: 200, body: '<html><title>Errors and you</title></html>' }, null],
  // problem+json overrides
  [
    'problem retryable 404',
    {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'https://x/not-ready',
        title: 'Not ready',
        status: 404,
        code: 'resource_not_ready',
        retryable: true,
        retry_after: 5,
      },
    },
    { class: 'transient', code: 'resource_not_ready', retryable: true, retry_after: 5 },
  ],
  [
    'problem retryable false on 503',
    {
      status: 503,
      body: { title: 'Suspended', status: 503, code: 'tenant_suspended', retryable: false, retry_after: 30 },
    },
    { class: 'transient', code: 'tenant_suspended', retryable: false, retry_after: null },
  ],
  // vendors
  [
    'Anthropic 529 overloaded',
    { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    { class: 'transient', code: '529', retryable: true },
  ],
  [
    'Stripe lock_timeout 429',
    {
      status: 429,
      headers: { 'stripe-should-retry': 'true' },
      body: { error: { type: 'invalid_request_error', code: 'lock_timeout', message: 'locked' } },
    },
    { retryable: true },
  ],
  [
    'Stripe processing_error',
    {
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'processing_error',
          message: 'An error occurred while processing your card.',
        },
      },
    },
    { class: 'transient', code: 'processing_error', retryable: true },
  ],
  [
    'Stripe idempotency_error',
    {
      status: 400,
      body: {
        error: {
          type: 'idempotency_error',
          message: 'Keys for idempotent requests can only be used with the same parameters',
        },
      },
    },
    { class: 'validation', code: '400' },
  ],
  [
    'Kubernetes Status',
    {
      status: 409,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Conflict',
        message: 'conflict',
        code: 409,
      },
    },
    { class: 'permanent', code: '409' },
  ],
  [
    'Salesforce array',
    {
      status: 403,
      body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }],
    },
    { class: 'rate_limit', code: 'REQUEST_LIMIT_EXCEEDED' },
  ],
  [
    'nginx HTML 502',
    {
      status: 502,
      body: '<html>\r\n<head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>',
    },
    { class: 'transient', code: '502' },
  ],
  ['Cloudflare 1015 text', { status: 429, body: 'error code: 1015' }, { class: 'rate_limit', code: '1015' }],
  [
    'Uint8Array JSON body',
    { status: 200, body: new TextEncoder().encode('{"ok":false,"error":"not_authed"}') },
    { class: 'authentication', code: 'not_authed' },
  ],
  [
    '403 with Retry-After (secondary limit)',
    { status: 403, headers: { 'retry-after': '60' }, body: '' },
    { class: 'rate_limit', retry_after: 60 },
  ],
  [
    'Okta errorCode + errorSummary',
    {
      status: 429,
      body: {
        errorCode: 'E0000047',
        errorSummary: 'API call exceeded rate limit due to too many requests.',
        errorLink: 'E0000047',
        errorId: 'oae1',
        errorCauses: [],
      },
    },
    {
      class: 'rate_limit',
      code: 'E0000047',
      message: 'API call exceeded rate limit due to too many requests.',
    },
  ],
  [
    'GraphQL extension retryAfter',
    {
      status: 200,
      body: { errors: [{ message: 'slow down', extensions: { code: 'RATE_LIMITED', retryAfter: 3 } }] },
    },
    { class: 'rate_limit', retry_after: 3 },
  ],
  [
    'MCP isError result',
    {
      status: 200,
      body: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'boom' }], isError: true } },
    },
    { class: 'permanent', message: 'boom', retryable: false },
  ],
  [
    'statusCode (IncomingMessage)',
    { statusCode: 503, headers: { 'retry-after': '4' } } as unknown as HttpResponseLike,
    { class: 'transient', retry_after: 4 },
  ],
];

describe('classifyHttpResponse', () => {
  it.each(cases)('%s', (_name, input, want) => {
    const env = classifyHttpResponse(input, { nowMs: NOW });
    if (want === null) {
      expect(env).toBeNull();
      return;
    }
    expect(env).not.toBeNull();
    expect(env).toMatchObject(want);
    if (env?.retryable === false) expect(env.retry_after).toBeNull();
  });

  it('fills source, correlation_id and a message', () => {
    const env = classifyHttpResponse({ status: 503 }, { correlationId: 'req_8f21c0' });
    expect(env).toMatchObject({
      source: 'http',
      correlation_id: 'req_8f21c0',
      message: 'HTTP 503 Service Unavailable',
    });
    expect(classifyHttpResponse({ status: 503 }, { source: 'sdk' })?.source).toBe('sdk');
    expect(classifyHttpResponse({ status: 503 })?.correlation_id).toBe('');
  });

  it('keeps status, a redacted header subset and a bounded body in raw', () => {
    const env = classifyHttpResponse({
      status: 401,
      headers: {
        'Set-Cookie': 'session=s3cr3t-cookie; HttpOnly',
        Authorization: 'Bearer leaked-token-1234',
        'X-Request-Id': 'r-1',
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      },
      body: {
        error: { message: 'bad key sk_live_51AbCdEfGhIjKlMnOp', type: 'authentication_error' },
        api_key: 'k-1234',
      },
    });
    const text = JSON.stringify(env);
    expect(text).not.toMatch(/s3cr3t-cookie|leaked-token-1234|sk_live_51AbCdEfGhIjKlMnOp|k-1234/);
    expect(env?.raw).toMatchObject({ status: 401, headers: { 'x-request-id': 'r-1' } });
    expect((env!.raw as { headers: object }).headers).not.toHaveProperty('set-cookie');

    const big = classifyHttpResponse({ status: 500, body: `<html>${'x'.repeat(200_000)}</html>` });
    expect(JSON.stringify(big?.raw).length).toBeLessThan(8192);
  });

  it('explains bad input', () => {
    expect(() => classifyHttpResponse({ status: 'oops' } as never)).toThrow(
      /status must be an integer HTTP status code/,
    );
    expect(() => classifyHttpResponse(null as never)).toThrow(
      /expected an object like \{ status, headers\?, body\? \}/,
    );
  });
});
