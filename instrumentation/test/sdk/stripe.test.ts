import Stripe from 'stripe';
import { describe, it } from 'vitest';
import { ALL_SECRETS, closedPort, expectEnvelope, PLANTED, thrownBy, useFakeVendor } from './fake-vendor.js';

/**
 * stripe (the official Node SDK) against a fake api.stripe.com. Shapes: the error object of
 * https://docs.stripe.com/api/errors, codes of https://docs.stripe.com/error-codes, retries of
 * https://docs.stripe.com/error-low-level (Stripe-Should-Retry). The SDK keeps the body's
 * fields on the error (node_modules/stripe/cjs/Error.js: statusCode, headers, code, rawType)
 * and a connection failure's original error in `detail` (cjs/RequestSender.js).
 */

const vendor = useFakeVendor();

function client(port = vendor.port, timeout?: number): Stripe {
  return new Stripe(PLANTED.stripeKey, {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
    ...(timeout === undefined ? {} : { timeout }),
  });
}

const createCustomer = (s: Stripe) =>
  s.customers.create({ email: 'a@example.com', metadata: { password: PLANTED.password } });

const requestId = { 'request-id': 'req_planted01' };

describe('stripe SDK errors', () => {
  it('402 card_declined is permanent with the decline code kept (docs: error-codes#card-declined)', async () => {
    vendor.answer({
      status: 402,
      headers: requestId,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        },
      },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'permanent', code: 'card_declined', source: 'sdk' }, ALL_SECRETS);
  });

  it('429 rate_limit is a rate limit, no wait sent (docs: rate-limits)', async () => {
    vendor.answer({
      status: 429,
      body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'rate_limit', code: 'rate_limit', retry_after: null }, ALL_SECRETS);
  });

  it('429 lock_timeout: another request holds the object, retry (docs: rate-limits#object-lock-timeouts)', async () => {
    vendor.answer({
      status: 429,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'lock_timeout',
          message: 'This object cannot be accessed right now because another API request is accessing it.',
        },
      },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'transient', code: 'lock_timeout' }, ALL_SECRETS);
  });

  it('409 idempotency_key_in_use: the same key is in flight, retry later (docs: error-codes#idempotency-key-in-use)', async () => {
    vendor.answer({
      status: 409,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'idempotency_key_in_use',
          message: 'There is currently another in-progress request using this Idempotent Key.',
        },
      },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'transient', code: 'idempotency_key_in_use' }, ALL_SECRETS);
  });

  it('401 without a code keeps the status, never the SDK class name; the echoed key is redacted (docs: api/errors)', async () => {
    vendor.answer({
      status: 401,
      body: {
        error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${PLANTED.stripeKey}` },
      },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'authentication', code: '401' }, ALL_SECRETS);
  });

  it('500 api_error with Stripe-Should-Retry: true is transient (docs: error-low-level#server-errors)', async () => {
    vendor.answer({
      status: 500,
      headers: { 'stripe-should-retry': 'true' },
      body: { error: { type: 'api_error', message: 'An unknown error occurred' } },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'transient', code: '500' }, ALL_SECRETS);
  });

  it('500 with Stripe-Should-Retry: false is not retried (docs: error-low-level#server-errors)', async () => {
    vendor.answer({
      status: 500,
      headers: { 'stripe-should-retry': 'false' },
      body: { error: { type: 'api_error', message: 'An unknown error occurred' } },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(
      err,
      { class: 'transient', code: '500', retryable: false, retry_after: null },
      ALL_SECRETS,
    );
  });

  it('400 parameter_missing is validation; a password echoed in the message is redacted (docs: error-codes#parameter-missing)', async () => {
    vendor.answer({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'parameter_missing',
          param: 'email',
          message: `Missing required param: email. Received {"password": "${PLANTED.password}"}`,
        },
      },
    });
    const err = await thrownBy(() => createCustomer(client()));
    expectEnvelope(err, { class: 'validation', code: 'parameter_missing' }, ALL_SECRETS);
  });

  it('404 resource_missing is permanent (docs: error-codes#resource-missing)', async () => {
    vendor.answer({
      status: 404,
      body: {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such customer' },
      },
    });
    const err = await thrownBy(() => client().customers.retrieve('cus_missing'));
    expectEnvelope(err, { class: 'permanent', code: 'resource_missing' }, ALL_SECRETS);
  });

  it('a refused connection is transient with the socket code, not StripeConnectionError (cjs/RequestSender.js detail)', async () => {
    const port = await closedPort();
    const err = await thrownBy(() => createCustomer(client(port)));
    expectEnvelope(err, { class: 'transient', code: 'ECONNREFUSED' }, ALL_SECRETS);
  });

  it("the SDK's own timeout is transient, code ETIMEDOUT (cjs/net/HttpClient.js TIMEOUT_ERROR_CODE)", async () => {
    vendor.answer({ status: 200, body: { id: 'cus_1' }, delayMs: 1500 });
    const err = await thrownBy(() => createCustomer(client(vendor.port, 100)));
    expectEnvelope(err, { class: 'transient', code: 'ETIMEDOUT' }, ALL_SECRETS);
  });
});
