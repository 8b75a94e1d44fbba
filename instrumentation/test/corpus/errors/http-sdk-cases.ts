import type { ErrorCase } from '../corpus-case.js';
import {
  AxiosError,
  AxiosHeaders,
  AzureHttpHeaders,
  AzureRestError,
  axiosSettleError,
  GaxiosError,
  GotHTTPError,
  GotTimeoutError,
  OctokitRequestError,
  slackHttpError,
  slackPlatformError,
  slackRateLimitedError,
  slackRequestError,
  TwilioRestException,
} from './vendor-sdk-errors.js';

const AXIOS = 'axios v1 lib/core/AxiosError.js + lib/core/settle.js';
const GOT = 'got v14 source/core/errors.ts (HTTPError/TimeoutError; response non-enumerable)';
const GAXIOS = 'gaxios v7 src/common.ts GaxiosError (code from the AIP-193 cause: a number)';
const AZURE = '@azure/core-rest-pipeline src/restError.ts (RestError; request/response non-enumerable)';
const TWILIO = 'twilio-node src/base/RestException.ts';
const SLACK = '@slack/web-api src/errors.ts';
const OCTOKIT = '@octokit/request-error src/index.ts';

const NO = { retryable: false, retry_after: null } as const;
const conn = (message: string, code: string, syscall = 'read') =>
  Object.assign(new Error(message), { code, errno: -104, syscall });

/** HTTP client and cloud/vendor SDK exceptions (axios, got, gaxios, Azure, Twilio, Slack, Octokit). */
export const httpSdkCases: ErrorCase[] = [
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
  {
    id: 'axios-vendor-credential-headers-and-signed-url',
    origin: `${AXIOS}; header names from Azure OpenAI (api-key), Google (x-goog-api-key, ?key=), Azure APIM, AWS STS/presigned URLs, Azure SAS (?sig=)`,
    secrets: [
      'h6S1apikey',
      'h6S2googkey',
      'h6S3apimkey',
      'h6S4amztoken',
      'h6S5proxy',
      'h6S6querykey',
      'h6S7sassig',
      'h6S8presign',
      'h6S9xauth',
    ],
    build: () =>
      axiosSettleError({
        status: 500,
        statusText: 'Internal Server Error',
        headers: new AxiosHeaders({}),
        data: {},
        config: {
          url: 'https://maps.googleapis.com/maps/api/geocode/json?address=x&key=h6S6querykey&sig=h6S7sassig&X-Amz-Signature=h6S8presign',
          headers: {
            'api-key': 'h6S1apikey',
            'x-goog-api-key': 'h6S2googkey',
            'Ocp-Apim-Subscription-Key': 'h6S3apimkey',
            'X-Amz-Security-Token': 'h6S4amztoken',
            'Proxy-Authorization': 'Basic h6S5proxy',
            'X-Auth-Token': 'h6S9xauth',
          },
        },
      }),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
];
