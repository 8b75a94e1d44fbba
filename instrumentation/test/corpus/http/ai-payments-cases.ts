import type { HttpCase } from '../corpus-case.js';

const OPENAI = 'OpenAI docs, https://platform.openai.com/docs/guides/error-codes#api-errors';
const ANTHROPIC = 'Anthropic docs, https://docs.anthropic.com/en/api/errors';
const STRIPE = 'Stripe docs, https://docs.stripe.com/error-handling + https://docs.stripe.com/api/errors';
const STRIPE_RETRY = 'Stripe docs, https://docs.stripe.com/error-low-level#idempotency (Stripe-Should-Retry)';
const TWILIO = 'Twilio docs, https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions';

const openaiError = (message: string, type: string, code: string | null) => ({
  error: { message, type, param: null, code },
});

/** OpenAI, Anthropic, Stripe and Twilio HTTP error responses. */
export const aiPaymentsCases: HttpCase[] = [
  {
    id: 'openai-429-insufficient-quota',
    origin: `${OPENAI} ("429 - You exceeded your current quota": billing, not rate)`,
    note: 'Waiting will not fix exhausted billing quota: not retryable; class permanent (replan / escalate).',
    input: {
      status: 429,
      headers: { 'x-request-id': 'req_5b1c7e2f', 'content-type': 'application/json' },
      body: openaiError(
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
        'insufficient_quota',
        'insufficient_quota',
      ),
    },
    expected: { class: 'permanent', code: 'insufficient_quota', retryable: false, retry_after: null },
  },
  {
    id: 'openai-429-rate-limit-exceeded-retry-after-ms',
    origin: `${OPENAI}; openai-node src/client.ts retry logic reads retry-after-ms before retry-after`,
    input: {
      status: 429,
      headers: {
        'retry-after-ms': '5820',
        'retry-after': '6',
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '5.82s',
      },
      body: openaiError(
        'Rate limit reached for gpt-4o in organization org-abc123 on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 5.82s.',
        'tokens',
        'rate_limit_exceeded',
      ),
    },
    expected: { class: 'rate_limit', code: 'rate_limit_exceeded', retryable: true, retry_after: 5.82 },
  },
  {
    id: 'openai-429-requests-retry-after-seconds',
    origin: `${OPENAI} (requests-per-minute limit, retry-after seconds only)`,
    input: {
      status: 429,
      headers: { 'retry-after': '20' },
      body: openaiError(
        'Rate limit reached for requests. Limit: 500 / min. Please try again in 20s.',
        'requests',
        'rate_limit_exceeded',
      ),
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 20 },
  },
  {
    id: 'openai-401-invalid-api-key',
    origin: `${OPENAI} (401 Incorrect API key provided)`,
    input: {
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="OpenAI API"' },
      body: openaiError(
        'Incorrect API key provided: sk-proj-****************************abcd. You can find your API key at https://platform.openai.com/account/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      ),
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'openai-400-context-length',
    origin: `${OPENAI} (400 context_length_exceeded)`,
    input: {
      status: 400,
      headers: {},
      body: {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'openai-404-model-not-found',
    origin: `${OPENAI} (404 model_not_found)`,
    input: {
      status: 404,
      headers: {},
      body: openaiError(
        'The model `gpt-5-turbo-preview` does not exist or you do not have access to it.',
        'invalid_request_error',
        'model_not_found',
      ),
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'openai-500-server-error',
    origin: `${OPENAI} (500 The server had an error while processing your request)`,
    input: {
      status: 500,
      headers: {},
      body: openaiError(
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      ),
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'openai-503-overloaded',
    origin: `${OPENAI} (503 The engine is currently overloaded)`,
    input: {
      status: 503,
      headers: {},
      body: openaiError('The engine is currently overloaded, please try again later.', 'server_error', null),
    },
    expected: { class: 'transient', code: '503', retryable: true, retry_after: null },
  },
  {
    id: 'anthropic-529-overloaded',
    origin: `${ANTHROPIC} (529 overloaded_error)`,
    input: {
      status: 529,
      headers: { 'request-id': 'req_011CQ8jk', 'x-should-retry': 'true', 'content-type': 'application/json' },
      body: {
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
        request_id: 'req_011CQ8jk',
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'anthropic-429-rate-limit-retry-after',
    origin: `${ANTHROPIC}; https://docs.anthropic.com/en/api/rate-limits#response-headers (retry-after seconds)`,
    input: {
      status: 429,
      headers: {
        'retry-after': '20',
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': '2026-11-29T15:00:20Z',
      },
      body: {
        type: 'error',
        error: {
          type: 'rate_limit_error',
          message:
            'This request would exceed the rate limit for your organization of 50 requests per minute.',
        },
      },
    },
    expected: { class: 'rate_limit', code: '429', retryable: true, retry_after: 20 },
  },
  {
    id: 'anthropic-401-authentication-error',
    origin: `${ANTHROPIC} (401 authentication_error)`,
    input: {
      status: 401,
      headers: {},
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'anthropic-403-permission-error',
    origin: `${ANTHROPIC} (403 permission_error)`,
    input: {
      status: 403,
      headers: {},
      body: {
        type: 'error',
        error: {
          type: 'permission_error',
          message: 'Your API key does not have permission to use the specified resource.',
        },
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'anthropic-400-invalid-request',
    origin: `${ANTHROPIC} (400 invalid_request_error)`,
    input: {
      status: 400,
      headers: {},
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'anthropic-500-api-error',
    origin: `${ANTHROPIC} (500 api_error)`,
    input: {
      status: 500,
      headers: {},
      body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'stripe-402-card-declined',
    origin: `${STRIPE} (402 card_error / card_declined, Stripe-Should-Retry: false)`,
    input: {
      status: 402,
      headers: {
        'request-id': 'req_Xk1zPq2',
        'stripe-should-retry': 'false',
        'stripe-version': '2024-06-20',
      },
      body: {
        error: {
          charge: 'ch_3PkLmN2eZvKYlo2C1a2b3c4d',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          doc_url: 'https://stripe.com/docs/error-codes/card-declined',
          message: 'Your card has insufficient funds.',
          type: 'card_error',
        },
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-429-rate-limit-should-retry',
    origin: `${STRIPE_RETRY}; https://docs.stripe.com/rate-limits (429 rate_limit)`,
    input: {
      status: 429,
      headers: { 'Stripe-Should-Retry': 'true', 'Request-Id': 'req_R8t9' },
      body: {
        error: {
          code: 'rate_limit',
          doc_url: 'https://stripe.com/docs/error-codes/rate-limit',
          message:
            'Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.',
          type: 'invalid_request_error',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'stripe-409-lock-timeout-should-retry-true',
    origin: `${STRIPE_RETRY}; https://docs.stripe.com/error-codes#lock-timeout`,
    note: 'Status 409 says permanent, the server says retry: the override wins; lock contention is transient.',
    input: {
      status: 409,
      headers: { 'stripe-should-retry': 'true' },
      body: {
        error: {
          code: 'lock_timeout',
          message:
            'This object cannot be accessed right now because another API request or Stripe process is currently accessing it.',
          type: 'invalid_request_error',
        },
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'stripe-500-api-error-should-retry-false',
    origin: `${STRIPE_RETRY} (server says do not retry even on 5xx)`,
    input: {
      status: 500,
      headers: { 'stripe-should-retry': 'false' },
      body: { error: { message: 'An unknown error occurred', type: 'api_error' } },
    },
    expected: { class: 'transient', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-400-parameter-missing',
    origin: `${STRIPE} (400 invalid_request_error / parameter_missing)`,
    input: {
      status: 400,
      headers: {},
      body: {
        error: {
          code: 'parameter_missing',
          doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
          message: 'Missing required param: amount.',
          param: 'amount',
          type: 'invalid_request_error',
        },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-400-idempotency-error',
    origin: `${STRIPE} (idempotency_error: key reused with different parameters)`,
    input: {
      status: 400,
      headers: { 'idempotency-key': 'order-8812-attempt' },
      body: {
        error: {
          message:
            "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'order-8812-attempt' if you meant to execute a different request.",
          type: 'idempotency_error',
        },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-401-invalid-api-key',
    origin: `${STRIPE} (401 authentication)`,
    input: {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="Stripe"' },
      body: {
        error: {
          message: 'Invalid API Key provided: sk_test_********************1234',
          type: 'invalid_request_error',
        },
      },
    },
    expected: { class: 'authentication', code: '401', retryable: false, retry_after: null },
  },
  {
    id: 'stripe-404-resource-missing',
    origin: `${STRIPE} (404 resource_missing)`,
    input: {
      status: 404,
      headers: {},
      body: {
        error: {
          code: 'resource_missing',
          message: "No such customer: 'cus_NffrFeUfNV2Hib'",
          param: 'customer',
          type: 'invalid_request_error',
        },
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'twilio-429-too-many-requests',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/20429`,
    input: {
      status: 429,
      headers: { 'twilio-request-id': 'RQ1234' },
      body: {
        code: 20429,
        message: 'Too Many Requests',
        more_info: 'https://www.twilio.com/docs/errors/20429',
        status: 429,
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'twilio-401-authenticate',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/20003`,
    input: {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="Twilio API"' },
      body: {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'twilio-400-invalid-to-number',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/21211`,
    input: {
      status: 400,
      headers: {},
      body: {
        code: 21211,
        message: "The 'To' number +1555000 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'twilio-404-not-found',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/20404`,
    input: {
      status: 404,
      headers: {},
      body: {
        code: 20404,
        message: 'The requested resource /2010-04-01/Accounts/AC123/Messages/SM999.json was not found',
        more_info: 'https://www.twilio.com/docs/errors/20404',
        status: 404,
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
];
