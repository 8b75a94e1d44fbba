import type { ErrorCase } from '../corpus-case.js';
import {
  anthropic,
  openai,
  StripeAPIError,
  StripeAuthenticationError,
  StripeCardError,
  StripeConnectionError,
  StripeInvalidGrantError,
  StripeInvalidRequestError,
  StripePermissionError,
  StripeRateLimitError,
  stripeResponseError,
} from './vendor-sdk-errors.js';

const OPENAI = 'openai-node src/core/error.ts (APIError.generate; headers is a fetch Headers)';
const ANTHROPIC = 'anthropic-sdk-typescript src/core/error.ts (APIError.generate; error = whole body)';
const STRIPE =
  'stripe-node src/Error.ts + src/RequestSender.ts (_handleResponse: 401/403/429 classes, headers/statusCode)';

const NO = { retryable: false, retry_after: null } as const;
const openaiBody = (message: string, type: string, code: string | null) => ({
  message,
  type,
  param: null,
  code,
});
const conn = (message: string, code: string, syscall = 'read') =>
  Object.assign(new Error(message), { code, errno: -104, syscall });

/** OpenAI, Anthropic and Stripe SDK exceptions: embedded status, headers and the vendor body. */
export const aiPaymentSdkCases: ErrorCase[] = [
  {
    id: 'openai-sdk-rate-limit-retry-after-ms',
    origin: OPENAI,
    build: () =>
      new openai.RateLimitError(
        429,
        openaiBody(
          'Rate limit reached for gpt-4o on tokens per min (TPM). Please try again in 1.5s.',
          'tokens',
          'rate_limit_exceeded',
        ),
        undefined,
        new Headers({ 'retry-after-ms': '1500', 'x-request-id': 'req_1' }),
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: 1.5 },
  },
  {
    id: 'openai-sdk-insufficient-quota',
    origin: `${OPENAI}; https://platform.openai.com/docs/guides/error-codes#api-errors`,
    note: 'A 429 that is exhausted billing: waiting will not fix it.',
    build: () =>
      new openai.RateLimitError(
        429,
        openaiBody(
          'You exceeded your current quota, please check your plan and billing details.',
          'insufficient_quota',
          'insufficient_quota',
        ),
        undefined,
        new Headers({ 'x-request-id': 'req_2' }),
      ),
    expected: { class: 'permanent', code: 'insufficient_quota', ...NO },
  },
  {
    id: 'openai-sdk-authentication',
    origin: OPENAI,
    build: () =>
      new openai.AuthenticationError(
        401,
        openaiBody(
          'Incorrect API key provided: sk-proj-****abcd.',
          'invalid_request_error',
          'invalid_api_key',
        ),
        undefined,
        new Headers({}),
      ),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'openai-sdk-bad-request',
    origin: OPENAI,
    build: () =>
      new openai.BadRequestError(
        400,
        openaiBody(
          "Invalid type for 'temperature': expected a decimal.",
          'invalid_request_error',
          'invalid_type',
        ),
        undefined,
        new Headers({}),
      ),
    expected: { class: 'validation', ...NO },
  },
  {
    id: 'openai-sdk-internal-server-error-503',
    origin: OPENAI,
    build: () =>
      new openai.InternalServerError(
        503,
        openaiBody('The engine is currently overloaded, please try again later.', 'server_error', null),
        undefined,
        new Headers({ 'x-should-retry': 'true' }),
      ),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'openai-sdk-v4-plain-headers-object',
    origin: 'openai-node v4 src/error.ts (headers: Core.Headers = Record<string, string>)',
    build: () =>
      Object.assign(
        new openai.RateLimitError(
          429,
          openaiBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
          undefined,
          undefined,
        ),
        { headers: { 'retry-after': '3', 'x-request-id': 'req_3' } },
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: 3 },
  },
  {
    id: 'openai-sdk-connection-error-cause',
    origin: `${OPENAI} (APIConnectionError with cause)`,
    build: () => new openai.APIConnectionError({ cause: conn('read ECONNRESET', 'ECONNRESET') }),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'openai-sdk-connection-timeout',
    origin: `${OPENAI} (APIConnectionTimeoutError)`,
    build: () => new openai.APIConnectionTimeoutError(),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'anthropic-sdk-529-overloaded',
    origin: `${ANTHROPIC}; https://docs.anthropic.com/en/api/errors`,
    build: () =>
      new anthropic.InternalServerError(
        529,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        undefined,
        new Headers({ 'request-id': 'req_011', 'x-should-retry': 'true' }),
      ),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'anthropic-sdk-429-retry-after',
    origin: ANTHROPIC,
    build: () =>
      new anthropic.RateLimitError(
        429,
        {
          type: 'error',
          error: {
            type: 'rate_limit_error',
            message: 'Number of request tokens has exceeded your per-minute rate limit',
          },
        },
        undefined,
        new Headers({ 'retry-after': '20', 'request-id': 'req_012' }),
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: 20 },
  },
  {
    id: 'stripe-sdk-card-error',
    origin: STRIPE,
    build: () =>
      stripeResponseError(
        StripeCardError,
        402,
        { 'request-id': 'req_a', 'stripe-should-retry': 'false' },
        {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        },
      ),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'stripe-sdk-rate-limit',
    origin: STRIPE,
    build: () =>
      stripeResponseError(
        StripeRateLimitError,
        429,
        { 'request-id': 'req_b', 'stripe-should-retry': 'true' },
        {
          type: 'invalid_request_error',
          code: 'rate_limit',
          message: 'Too many requests hit the API too quickly.',
        },
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'stripe-sdk-lock-timeout-should-retry',
    origin: `${STRIPE}; https://docs.stripe.com/error-low-level#idempotency`,
    note: 'Stripe-Should-Retry: true on a 409 lock_timeout: the server says replay.',
    build: () =>
      stripeResponseError(
        StripeInvalidRequestError,
        409,
        { 'request-id': 'req_c', 'stripe-should-retry': 'true' },
        {
          type: 'invalid_request_error',
          code: 'lock_timeout',
          message:
            'This object cannot be accessed right now because another API request or Stripe process is currently accessing it.',
        },
      ),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'stripe-sdk-invalid-request',
    origin: STRIPE,
    build: () =>
      stripeResponseError(
        StripeInvalidRequestError,
        400,
        { 'request-id': 'req_d' },
        {
          type: 'invalid_request_error',
          code: 'parameter_invalid_integer',
          param: 'amount',
          message: 'Invalid integer: abc',
        },
      ),
    expected: { class: 'validation', ...NO },
  },
  {
    id: 'stripe-sdk-authentication',
    origin: STRIPE,
    secrets: ['sk_live_h6StripeS3cretKey'],
    build: () =>
      stripeResponseError(
        StripeAuthenticationError,
        401,
        { 'request-id': 'req_e' },
        {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided: sk_live_h6StripeS3cretKey',
        },
      ),
    expected: { class: 'authentication', ...NO },
    note: 'Stripe echoes the key (masked in production); the planted full key must not survive redaction.',
  },
  {
    id: 'stripe-sdk-api-error-500',
    origin: STRIPE,
    build: () =>
      stripeResponseError(
        StripeAPIError,
        500,
        { 'request-id': 'req_f', 'stripe-should-retry': 'true' },
        {
          type: 'api_error',
          message: 'An unknown error occurred',
        },
      ),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'stripe-sdk-connection-error',
    origin: `${STRIPE} (StripeConnectionError after network failure)`,
    build: () =>
      new StripeConnectionError({
        message: 'An error occurred with our connection to Stripe. Request was retried 2 times.',
        detail: conn('read ECONNRESET', 'ECONNRESET'),
      }),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'openai-sdk-insufficient-quota-with-retry-after',
    origin: `${OPENAI}; https://platform.openai.com/docs/guides/error-codes#api-errors`,
    note: 'Billing exhaustion with a Retry-After header: still not retryable, retry_after null.',
    build: () =>
      new openai.RateLimitError(
        429,
        {
          message: 'You exceeded your current quota.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
        undefined,
        new Headers({ 'retry-after': '30' }),
      ),
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-sdk-permission-error-403',
    origin: `${STRIPE} (403 → StripePermissionError)`,
    build: () =>
      stripeResponseError(
        StripePermissionError,
        403,
        { 'request-id': 'req_g' },
        {
          type: 'invalid_request_error',
          message:
            "The provided key 'rk_live_****1234' does not have the required permissions for this endpoint.",
        },
      ),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'stripe-sdk-invalid-grant',
    origin: `${STRIPE} (invalid_grant → StripeInvalidGrantError: OAuth code expired or already used)`,
    build: () =>
      stripeResponseError(
        StripeInvalidGrantError,
        400,
        { 'request-id': 'req_h' },
        {
          type: 'invalid_grant',
          message: 'Authorization code does not exist: ac_123456789',
        },
      ),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'openai-sdk-retry-after-http-date',
    origin: `${OPENAI}; RFC 9110 Retry-After HTTP-date`,
    build: () =>
      new openai.RateLimitError(
        429,
        {
          message: 'Rate limit reached for requests',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
        undefined,
        new Headers({ 'retry-after': new Date(Date.now() + 20_000).toUTCString() }),
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: { min: 17, max: 21 } },
  },
  {
    id: 'stripe-sdk-429-should-retry-false',
    origin: `${STRIPE}; https://docs.stripe.com/error-low-level#idempotency (Stripe-Should-Retry: false wins over 429)`,
    build: () =>
      stripeResponseError(
        StripeRateLimitError,
        429,
        { 'request-id': 'req_i', 'stripe-should-retry': 'false' },
        {
          type: 'invalid_request_error',
          code: 'rate_limit',
          message: 'Too many requests hit the API too quickly.',
        },
      ),
    expected: { class: 'rate_limit', retryable: false, retry_after: null },
  },
];
