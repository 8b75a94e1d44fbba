import Anthropic from '@anthropic-ai/sdk';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * @anthropic-ai/sdk against a fake api.anthropic.com. Shapes: https://docs.anthropic.com/en/api/errors
 * (`{ type: 'error', error: { type, message } }`, 529 overloaded_error), rate-limit headers of
 * https://docs.anthropic.com/en/api/rate-limits#response-headers. The SDK keeps the whole body in
 * `error`, plus `status` and `headers` (node_modules/@anthropic-ai/sdk/core/error.js).
 */

const vendor = useFakeVendor();

function client(baseURL = vendor.url, timeout?: number): Anthropic {
  return new Anthropic({
    apiKey: PLANTED.anthropicKey,
    baseURL,
    maxRetries: 0,
    ...(timeout ? { timeout } : {}),
  });
}

const send = (c: Anthropic) =>
  c.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 16,
    messages: [{ role: 'user', content: `password: ${PLANTED.password}` }],
  });

const body = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_011',
});

describe('@anthropic-ai/sdk errors', () => {
  it('429 rate_limit_error waits Retry-After (docs: rate-limits#response-headers)', async () => {
    vendor.answer({
      status: 429,
      headers: { 'retry-after': '7', 'anthropic-ratelimit-requests-remaining': '0' },
      body: body('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
    });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'rate_limit', code: 'rate_limit_error', retry_after: 7 }, ALL_SECRETS);
  });

  it('529 overloaded_error is transient (docs: errors#http-errors)', async () => {
    vendor.answer({ status: 529, body: body('overloaded_error', 'Overloaded') });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'transient', code: 'overloaded_error' }, ALL_SECRETS);
  });

  it('400 whose message says the credit balance is too low is billing: permanent, not validation (docs: errors)', async () => {
    vendor.answer({
      status: 400,
      body: body(
        'invalid_request_error',
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      ),
    });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'permanent', code: 'invalid_request_error', retryable: false }, ALL_SECRETS);
  });

  it("400 invalid_request_error is validation; the error type is Anthropic's code (docs: errors#http-errors)", async () => {
    vendor.answer({ status: 400, body: body('invalid_request_error', 'max_tokens: Field required') });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'validation', code: 'invalid_request_error' }, ALL_SECRETS);
  });

  it('401 authentication_error is authentication; the echoed key is redacted (docs: errors)', async () => {
    vendor.answer({
      status: 401,
      body: body('authentication_error', `invalid x-api-key: ${PLANTED.anthropicKey}`),
    });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'authentication', code: 'authentication_error' }, ALL_SECRETS);
  });

  it('413 request_too_large is validation (docs: errors#http-errors)', async () => {
    vendor.answer({
      status: 413,
      body: body('request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
    });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'validation', code: 'request_too_large' }, ALL_SECRETS);
  });

  it('500 api_error is transient (docs: errors#http-errors)', async () => {
    vendor.answer({ status: 500, body: body('api_error', 'Internal server error') });
    const err = await thrownBy(() => send(client()));
    expectEnvelope(err, { class: 'transient', code: 'api_error' }, ALL_SECRETS);
  });

  it('a refused connection is ECONNREFUSED (core/error.js APIConnectionError cause)', async () => {
    const port = await closedPort();
    const err = await thrownBy(() => send(client(`http://127.0.0.1:${port}`)));
    expectEnvelope(err, { class: 'transient', code: 'ECONNREFUSED' }, ALL_SECRETS);
  });

  it("the SDK's own timeout is transient (client.js APIConnectionTimeoutError)", async () => {
    vendor.answer({ status: 200, body: {}, delayMs: 2000 });
    const err = await thrownBy(() => send(client(undefined, 100)));
    expectEnvelope(err, { class: 'transient', code: 'ETIMEDOUT' }, ALL_SECRETS);
  });
});
