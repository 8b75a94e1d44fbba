import type { ErrorCase } from '../corpus-case.js';
import {
  AxiosError,
  AxiosHeaders,
  AzureHttpHeaders,
  AzureRestError,
  anthropic,
  axiosSettleError,
  GaxiosError,
  GotHTTPError,
  GotTimeoutError,
  OctokitRequestError,
  openai,
  StripeAPIError,
  StripeAuthenticationError,
  StripeCardError,
  StripeConnectionError,
  StripeInvalidGrantError,
  StripeInvalidRequestError,
  StripePermissionError,
  StripeRateLimitError,
  slackHttpError,
  slackPlatformError,
  slackRateLimitedError,
  slackRequestError,
  stripeResponseError,
  TwilioRestException,
} from './vendor-sdk-errors.js';

const OPENAI = 'openai-node src/core/error.ts (APIError.generate; headers is a fetch Headers)';
const ANTHROPIC = 'anthropic-sdk-typescript src/core/error.ts (APIError.generate; error = whole body)';
const STRIPE =
  'stripe-node src/Error.ts + src/RequestSender.ts (_handleResponse: 401/403/429 classes, headers/statusCode)';
const AXIOS = 'axios v1 lib/core/AxiosError.js + lib/core/settle.js';
const GOT = 'got v14 source/core/errors.ts (HTTPError/TimeoutError; response non-enumerable)';
const GAXIOS = 'gaxios v7 src/common.ts GaxiosError (code from the AIP-193 cause: a number)';
const AZURE = '@azure/core-rest-pipeline src/restError.ts (RestError; request/response non-enumerable)';
const TWILIO = 'twilio-node src/base/RestException.ts';
const SLACK = '@slack/web-api src/errors.ts';
const OCTOKIT = '@octokit/request-error src/index.ts';

const NO = { retryable: false, retry_after: null } as const;
const openaiBody = (message: string, type: string, code: string | null) => ({
  message,
  type,
  param: null,
  code,
});
const conn = (message: string, code: string, syscall = 'read') =>
  Object.assign(new Error(message), { code, errno: -104, syscall });

/** Vendor SDK exceptions that embed an HTTP status, headers and the vendor body. */
export const vendorSdkCases: ErrorCase[] = [
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
    id: 'axios-503-retry-after',
    origin: AXIOS,
    secrets: ['h6-axios-Bearer-T0ken'],
    build: () =>
      axiosSettleError({
        status: 503,
        statusText: 'Service Unavailable',
        headers: new AxiosHeaders({ 'retry-after': '4', 'content-type': 'text/html' }),
        data: '<html>down for maintenance</html>',
        config: {
          url: 'https://api.example.com/v1/orders',
          method: 'get',
          headers: { Authorization: 'Bearer h6-axios-Bearer-T0ken' },
        },
      }),
    expected: { class: 'transient', retryable: true, retry_after: 4 },
  },
  {
    id: 'axios-429-rate-limit',
    origin: AXIOS,
    build: () =>
      axiosSettleError({
        status: 429,
        statusText: 'Too Many Requests',
        headers: new AxiosHeaders({ 'Retry-After': '8' }),
        data: { error: 'rate_limited' },
        config: { url: 'https://api.example.com/v1/search', method: 'get', headers: {} },
      }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 8 },
  },
  {
    id: 'axios-401-config-authorization-redacted',
    origin: AXIOS,
    secrets: ['h6-axios-Basic-Pa55', 'h6AxiosQueryKey'],
    build: () =>
      axiosSettleError({
        status: 401,
        statusText: 'Unauthorized',
        headers: new AxiosHeaders({ 'www-authenticate': 'Basic realm="api"' }),
        data: { message: 'invalid credentials' },
        config: {
          url: 'https://api.example.com/v1/me?api_key=h6AxiosQueryKey',
          method: 'get',
          headers: { Authorization: 'Basic h6-axios-Basic-Pa55' },
          auth: { username: 'svc', password: 'h6-axios-Basic-Pa55' },
        },
      }),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'axios-econnaborted-timeout',
    origin: `${AXIOS} (http adapter: "timeout of 5000ms exceeded", ECONNABORTED, no response)`,
    build: () =>
      new AxiosError('timeout of 5000ms exceeded', 'ECONNABORTED', {
        url: 'https://api.example.com',
        timeout: 5000,
        headers: {},
      }),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'axios-econnrefused',
    origin: `${AXIOS} (AxiosError.from(err) keeps the system code)`,
    build: () =>
      new AxiosError('connect ECONNREFUSED 127.0.0.1:8080', 'ECONNREFUSED', {
        url: 'http://127.0.0.1:8080',
        headers: {},
      }),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'got-http-error-429-non-enumerable-response',
    origin: GOT,
    secrets: ['h6-got-T0ken'],
    build: () =>
      new GotHTTPError(
        {
          statusCode: 429,
          statusMessage: 'Too Many Requests',
          headers: { 'retry-after': '6' },
          body: '{"error":"slow down"}',
        },
        {
          url: 'https://api.example.com/v2/items?token=h6-got-T0ken',
          headers: { authorization: 'token h6-got-T0ken' },
        },
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: 6 },
  },
  {
    id: 'got-timeout-error',
    origin: GOT,
    build: () => new GotTimeoutError({ url: 'https://api.example.com/v2/items', headers: {} }),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'gaxios-403-user-rate-limit',
    origin: `${GAXIOS}; https://developers.google.com/drive/api/guides/handle-errors`,
    build: () => {
      const data = {
        error: {
          code: 403,
          message: 'User Rate Limit Exceeded',
          errors: [
            { domain: 'usageLimits', reason: 'userRateLimitExceeded', message: 'User Rate Limit Exceeded' },
          ],
        },
      };
      const response = {
        status: 403,
        statusText: 'Forbidden',
        headers: new Headers({ 'content-type': 'application/json' }),
        data,
        config: {},
      };
      // extractAPIErrorFromResponse: Object.assign({ message, code, status }, res.data.error) becomes the cause.
      const cause = Object.assign(
        { message: 'User Rate Limit Exceeded', code: 403, status: 'Forbidden' },
        data.error,
      );
      return new GaxiosError(
        cause.message,
        { url: new URL('https://www.googleapis.com/drive/v3/files') },
        response,
        cause,
      );
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'gaxios-401-invalid-credentials',
    origin: GAXIOS,
    build: () => {
      const data = {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials.',
          status: 'UNAUTHENTICATED',
        },
      };
      const response = {
        status: 401,
        statusText: 'Unauthorized',
        headers: new Headers({}),
        data,
        config: {},
      };
      return new GaxiosError(
        data.error.message,
        { url: new URL('https://sheets.googleapis.com/v4/spreadsheets/x') },
        response,
        {
          ...data.error,
        },
      );
    },
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'gaxios-network-econnreset',
    origin: GAXIOS,
    build: () =>
      new GaxiosError(
        'request to https://oauth2.googleapis.com/token failed, reason: socket hang up',
        { url: new URL('https://oauth2.googleapis.com/token') },
        undefined,
        conn('socket hang up', 'ECONNRESET'),
      ),
    expected: { class: 'transient', code: 'ECONNRESET', retryable: true },
  },
  {
    id: 'azure-rest-error-429',
    origin: `${AZURE}; https://learn.microsoft.com/azure/azure-resource-manager/management/request-limits-and-throttling`,
    build: () =>
      new AzureRestError('The request is being throttled.', {
        code: 'TooManyRequests',
        statusCode: 429,
        response: {
          status: 429,
          headers: new AzureHttpHeaders({ 'Retry-After': '13', 'x-ms-request-id': 'r1' }),
        },
      }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 13 },
  },
  {
    id: 'azure-rest-error-request-send',
    origin: `${AZURE} (RestError.REQUEST_SEND_ERROR: transport failure, no status)`,
    build: () =>
      new AzureRestError('getaddrinfo EAI_AGAIN myvault.vault.azure.net', {
        code: AzureRestError.REQUEST_SEND_ERROR,
      }),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'azure-rest-error-403',
    origin: AZURE,
    build: () =>
      new AzureRestError(
        'The user, group or application does not have secrets get permission on key vault.',
        {
          code: 'Forbidden',
          statusCode: 403,
          response: { status: 403, headers: new AzureHttpHeaders({}) },
        },
      ),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'twilio-rest-exception-429',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/20429`,
    build: () =>
      new TwilioRestException({
        statusCode: 429,
        body: '{"code":20429,"message":"Too Many Requests","more_info":"https://www.twilio.com/docs/errors/20429","status":429}',
      }),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'twilio-rest-exception-401',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/20003`,
    build: () =>
      new TwilioRestException({
        statusCode: 401,
        body: {
          code: 20003,
          message: 'Authenticate',
          more_info: 'https://www.twilio.com/docs/errors/20003',
          status: 401,
        },
      }),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'twilio-rest-exception-400',
    origin: `${TWILIO}; https://www.twilio.com/docs/api/errors/21211`,
    build: () =>
      new TwilioRestException({
        statusCode: 400,
        body: {
          code: 21211,
          message: "The 'To' number 123 is not a valid phone number.",
          more_info: 'https://www.twilio.com/docs/errors/21211',
          status: 400,
        },
      }),
    expected: { class: 'validation', ...NO },
  },
  {
    id: 'slack-sdk-platform-invalid-auth',
    origin: SLACK,
    build: () => slackPlatformError({ ok: false, error: 'invalid_auth' }),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'slack-sdk-platform-channel-not-found',
    origin: SLACK,
    build: () => slackPlatformError({ ok: false, error: 'channel_not_found' }),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'slack-sdk-rate-limited-retry-after',
    origin: `${SLACK} (rateLimitedErrorWithDelay: retryAfter in seconds, no status)`,
    build: () => slackRateLimitedError(30),
    expected: { class: 'rate_limit', retryable: true, retry_after: 30 },
  },
  {
    id: 'slack-sdk-http-error-503',
    origin: SLACK,
    build: () => slackHttpError(503, 'Service Unavailable', { 'retry-after': '2' }, ''),
    expected: { class: 'transient', retryable: true, retry_after: 2 },
  },
  {
    id: 'slack-sdk-request-error-econnreset',
    origin: SLACK,
    build: () => slackRequestError(conn('socket hang up', 'ECONNRESET')),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'octokit-403-rate-limit-exhausted',
    origin: `${OCTOKIT}; https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api`,
    secrets: ['ghp_h6OctokitT0kenValue', 'h6ClientSecretValue'],
    build: () =>
      new OctokitRequestError('API rate limit exceeded for user ID 1.', 403, {
        request: {
          method: 'GET',
          url: 'https://api.github.com/repos/o/r/issues?client_secret=h6ClientSecretValue',
          headers: { authorization: 'token ghp_h6OctokitT0kenValue' },
        },
        response: {
          url: 'https://api.github.com/repos/o/r/issues',
          status: 403,
          headers: {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-limit': '5000',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 90),
          },
          data: {
            message: 'API rate limit exceeded for user ID 1.',
            documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
          },
        },
      }),
    expected: { class: 'rate_limit', retryable: true, retry_after: { min: 85, max: 92 } },
  },
  {
    id: 'octokit-404',
    origin: OCTOKIT,
    build: () =>
      new OctokitRequestError('Not Found', 404, {
        request: { method: 'GET', url: 'https://api.github.com/repos/o/missing', headers: {} },
        response: {
          url: 'https://api.github.com/repos/o/missing',
          status: 404,
          headers: {},
          data: { message: 'Not Found' },
        },
      }),
    expected: { class: 'permanent', code: '404', ...NO },
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
  {
    id: 'azure-rest-error-cosmos-x-ms-retry-after-ms',
    origin: `${AZURE}; @azure/core-rest-pipeline throttlingRetryStrategy (x-ms-retry-after-ms)`,
    build: () =>
      new AzureRestError('Request rate is large.', {
        code: 'TooManyRequests',
        statusCode: 429,
        response: {
          status: 429,
          headers: new AzureHttpHeaders({ 'x-ms-retry-after-ms': '1500', 'x-ms-substatus': '3200' }),
        },
      }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 1.5 },
  },
  {
    id: 'gaxios-429-retry-after-headers-instance',
    origin: `${GAXIOS} (response.headers is a fetch Headers)`,
    build: () => {
      const data = { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } };
      const response = {
        status: 429,
        statusText: 'Too Many Requests',
        headers: new Headers({ 'retry-after': '11' }),
        data,
        config: {},
      };
      const cause = Object.assign(
        { message: 'Quota exceeded', code: 429, status: 'Too Many Requests' },
        data.error,
      );
      return new GaxiosError(
        cause.message,
        { url: new URL('https://sheets.googleapis.com/v4/spreadsheets/x') },
        response,
        cause,
      );
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 11 },
  },
];
