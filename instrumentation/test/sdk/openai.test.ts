import OpenAI from 'openai';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * openai (Stainless-generated) against a fake api.openai.com. Shapes: error codes of
 * https://platform.openai.com/docs/guides/error-codes, rate-limit headers of
 * https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers. The SDK keeps
 * `status`, `headers` (a fetch Headers) and the body's inner `error` on APIError
 * (node_modules/openai/core/error.js), connection failures' cause on APIConnectionError.
 */

const vendor = useFakeVendor();

function client(baseURL = `${vendor.url}/v1`, timeout?: number): OpenAI {
  return new OpenAI({ apiKey: PLANTED.openaiKey, baseURL, maxRetries: 0, ...(timeout ? { timeout } : {}) });
}

const chat = (c: OpenAI, signal?: AbortSignal) =>
  c.chat.completions.create(
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `my password is ${PLANTED.password}` }] },
    signal ? { signal } : undefined,
  );

describe('openai SDK errors', () => {
  it('429 rate_limit_exceeded waits retry-after-ms (docs: rate-limits#rate-limits-in-headers)', async () => {
    vendor.answer({
      status: 429,
      headers: {
        'retry-after-ms': '1500',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '2s',
      },
      body: {
        error: {
          message: 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.',
          type: 'requests',
          code: 'rate_limit_exceeded',
          param: null,
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'rate_limit', code: 'rate_limit_exceeded', retry_after: 1.5 }, ALL_SECRETS);
  });

  it('429 with only the reset header waits the reset duration (docs: rate-limits#rate-limits-in-headers)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '6m0s' },
      body: { error: { message: 'Rate limit reached (TPM)', type: 'tokens', code: 'rate_limit_exceeded' } },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'rate_limit', code: 'rate_limit_exceeded', retry_after: 360 }, ALL_SECRETS);
  });

  it('429 insufficient_quota is billing, not a wait (docs: error-codes#api-errors)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'retry-after': '20' },
      body: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'permanent', code: 'insufficient_quota', retry_after: null }, ALL_SECRETS);
  });

  it('401 invalid_api_key echoing the key is authentication and redacted (docs: error-codes#api-errors)', async () => {
    vendor.answer({
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${PLANTED.openaiKey}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'authentication', code: 'invalid_api_key' }, ALL_SECRETS);
  });

  it('400 context_length_exceeded is validation (docs: error-codes)', async () => {
    vendor.answer({
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 128000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'validation', code: 'context_length_exceeded' }, ALL_SECRETS);
  });

  it('404 model_not_found is permanent (docs: error-codes#api-errors)', async () => {
    vendor.answer({
      status: 404,
      body: {
        error: {
          message: 'The model `gpt-9` does not exist',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'permanent', code: 'model_not_found' }, ALL_SECRETS);
  });

  it('500 server_error without a code keeps the error type (docs: error-codes#api-errors)', async () => {
    vendor.answer({
      status: 500,
      body: {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          code: null,
        },
      },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(err, { class: 'transient', code: 'server_error' }, ALL_SECRETS);
  });

  it('503 with x-should-retry: false is not retried (core/client.js shouldRetry reads x-should-retry)', async () => {
    vendor.answer({
      status: 503,
      headers: { 'x-should-retry': 'false' },
      body: { error: { message: 'The engine is currently overloaded', type: 'server_error', code: null } },
    });
    const err = await thrownBy(() => chat(client()));
    expectEnvelope(
      err,
      { class: 'transient', code: 'server_error', retryable: false, retry_after: null },
      ALL_SECRETS,
    );
  });

  it('a refused connection is ECONNREFUSED, not APIConnectionError (client.js castToError cause)', async () => {
    const port = await closedPort();
    const err = await thrownBy(() => chat(client(`http://127.0.0.1:${port}/v1`)));
    expectEnvelope(err, { class: 'transient', code: 'ECONNREFUSED' }, ALL_SECRETS);
  });

  it("the SDK's own timeout option is transient (client.js APIConnectionTimeoutError)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 2000 });
    const err = await thrownBy(() => chat(client(undefined, 100)));
    expectEnvelope(err, { class: 'transient', code: 'ETIMEDOUT' }, ALL_SECRETS);
  });

  it("the caller's abort is the caller's: permanent, not retried (client.js APIUserAbortError)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await thrownBy(() => chat(client(), controller.signal));
    expectEnvelope(err, { class: 'permanent', code: 'ABORT_ERR', retryable: false }, ALL_SECRETS);
  });
});
