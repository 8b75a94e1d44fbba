import type { HttpCase } from '../corpus-case.js';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Other high-traffic APIs whose failure shapes differ from the big vendors'. */
export const moreVendorCases: HttpCase[] = [
  {
    id: 'discord-429-body-retry-after-float',
    origin:
      'Discord developer docs, https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit',
    note: 'Body retry_after is a float in seconds; the Retry-After header rounds it up. Either is honest.',
    input: {
      status: 429,
      headers: { 'retry-after': '65', 'x-ratelimit-scope': 'user', 'x-ratelimit-reset-after': '64.57' },
      body: { message: 'You are being rate limited.', retry_after: 64.57, global: false },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: { min: 64.5, max: 65 } },
  },
  {
    id: 'x-twitter-429-rate-limit-reset-epoch',
    origin:
      'X API v2 docs, https://developer.x.com/en/docs/x-api/rate-limits (x-rate-limit-reset epoch seconds)',
    input: () => ({
      status: 429,
      headers: {
        'x-rate-limit-limit': '300',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(nowSeconds() + 45),
      },
      body: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    }),
    expected: { class: 'rate_limit', code: '429', retryable: true },
  },
  {
    id: 'hubspot-429-error-type-rate-limit',
    origin:
      'HubSpot docs, https://developers.hubspot.com/docs/api/usage-details#rate-limits (errorType RATE_LIMIT)',
    input: {
      status: 429,
      headers: { 'x-hubspot-ratelimit-secondly-remaining': '0' },
      body: {
        status: 'error',
        message: 'You have reached your secondly limit.',
        errorType: 'RATE_LIMIT',
        correlationId: 'c033cdaa-2c40-4a64-ae48-b4cec88dad24',
        policyName: 'SECONDLY',
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'salesforce-403-request-limit-exceeded-array-body',
    origin:
      'Salesforce REST API docs, https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm (403 REQUEST_LIMIT_EXCEEDED, array body)',
    note: 'The body is a JSON array of errors; a 403 that is a rate limit, not a permission problem.',
    input: {
      status: 403,
      headers: {
        'content-type': 'application/json;charset=UTF-8',
        'sforce-limit-info': 'api-usage=15000/15000',
      },
      body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }],
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'salesforce-401-invalid-session-id',
    origin: 'Salesforce REST API docs (401 INVALID_SESSION_ID)',
    input: {
      status: 401,
      headers: {},
      body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }],
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'kubernetes-429-status-retry-after',
    origin:
      'Kubernetes API conventions, https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#response-status-kind (Status reason TooManyRequests, details.retryAfterSeconds)',
    input: {
      status: 429,
      headers: { 'retry-after': '1', 'content-type': 'application/json' },
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'storage is (re)initializing',
        reason: 'TooManyRequests',
        details: { retryAfterSeconds: 1 },
        code: 429,
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 1 },
  },
  {
    id: 'elasticsearch-429-rejected-execution',
    origin:
      'Elasticsearch docs, https://www.elastic.co/guide/en/elasticsearch/reference/current/rejected-requests.html (es_rejected_execution_exception)',
    input: {
      status: 429,
      headers: { 'x-elastic-product': 'Elasticsearch' },
      body: {
        error: {
          root_cause: [
            {
              type: 'es_rejected_execution_exception',
              reason: 'rejected execution of coordinating operation',
            },
          ],
          type: 'es_rejected_execution_exception',
          reason:
            'rejected execution of coordinating operation [coordinating_and_primary_bytes=0, max_coordinating_and_primary_bytes=0]',
        },
        status: 429,
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'square-429-rate-limited',
    origin:
      'Square API docs, https://developer.squareup.com/docs/build-basics/handling-errors (category RATE_LIMIT_ERROR)',
    input: {
      status: 429,
      headers: {},
      body: {
        errors: [{ category: 'RATE_LIMIT_ERROR', code: 'RATE_LIMITED', detail: 'Rate limit exceeded' }],
      },
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'paypal-422-unprocessable-entity',
    origin: 'PayPal REST docs, https://developer.paypal.com/api/rest/reference/orders/v2/errors/',
    input: {
      status: 422,
      headers: { 'paypal-debug-id': 'f1a2b3c4' },
      body: {
        name: 'UNPROCESSABLE_ENTITY',
        details: [
          {
            issue: 'INSTRUMENT_DECLINED',
            description: 'The instrument presented was either declined by the processor or bank.',
          },
        ],
        message:
          'The requested action could not be performed, semantically incorrect, or failed business validation.',
        debug_id: 'f1a2b3c4',
      },
    },
    expected: { class: 'validation', code: '422', retryable: false, retry_after: null },
  },
  {
    id: 'aws-api-gateway-403-forbidden',
    origin:
      'Amazon API Gateway docs, https://docs.aws.amazon.com/apigateway/latest/developerguide/supported-gateway-response-types.html',
    input: {
      status: 403,
      headers: { 'x-amzn-errortype': 'ForbiddenException', 'x-amzn-requestid': 'a1b2' },
      body: { message: 'Forbidden' },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'aws-api-gateway-429-throttled',
    origin: 'Amazon API Gateway gateway responses (THROTTLED: 429 TooManyRequestsException)',
    input: {
      status: 429,
      headers: { 'x-amzn-errortype': 'TooManyRequestsException', 'x-amzn-requestid': 'a1b3' },
      body: { message: 'Too Many Requests' },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'cloudfront-504-could-not-be-satisfied',
    origin:
      'Amazon CloudFront docs, https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/http-504-gateway-timeout.html',
    input: {
      status: 504,
      headers: { 'x-cache': 'Error from cloudfront', 'content-type': 'text/html' },
      body: '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>504 Gateway Timeout ERROR</H1></BODY></HTML>',
    },
    expected: { class: 'transient', code: '504', retryable: true, retry_after: null },
  },
  {
    id: 'envoy-503-upstream-connect-error',
    origin:
      'Envoy proxy local reply, https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_conn_man/local_reply (upstream reset)',
    input: {
      status: 503,
      headers: { server: 'envoy', 'content-type': 'text/plain', 'x-envoy-overloaded': 'true' },
      body: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
    },
    expected: { class: 'transient', code: '503', retryable: true, retry_after: null },
  },
  {
    id: 'bearer-www-authenticate-expired-token',
    origin: 'RFC 6750 section 3, https://www.rfc-editor.org/rfc/rfc6750#section-3 (error="invalid_token")',
    input: {
      status: 401,
      headers: {
        'WWW-Authenticate':
          'Bearer realm="example", error="invalid_token", error_description="The access token expired"',
      },
      body: '',
    },
    expected: { class: 'authentication', code: '401', retryable: false, retry_after: null },
  },
  {
    id: 'retry-after-with-whitespace',
    origin: 'RFC 9110 section 5.5 (field values: surrounding whitespace is not part of the value)',
    input: { status: 503, headers: { 'retry-after': ' 30 ' }, body: '' },
    expected: { class: 'transient', retryable: true, retry_after: 30 },
  },
  {
    id: 'headers-numeric-value',
    origin: 'Node.js OutgoingHttpHeaders / proxies that hand headers over with number values',
    input: { status: 429, headers: { 'retry-after': 30 }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: 30 },
  },
  {
    id: 'headers-as-tuple-array',
    origin: 'WHATWG Fetch HeadersInit (sequence of [name, value] pairs)',
    input: { status: 429, headers: [['Retry-After', '15']], body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: 15 },
  },
  {
    id: 'json-body-as-uint8array',
    origin: 'undici Response.arrayBuffer() → Uint8Array body',
    input: () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"ok":false,"error":"invalid_auth"}'),
    }),
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'microsoft-graph-429-retry-after',
    origin: 'Microsoft Graph throttling docs, https://learn.microsoft.com/graph/throttling',
    input: {
      status: 429,
      headers: { 'Retry-After': '2', 'request-id': 'e1f2' },
      body: {
        error: {
          code: 'TooManyRequests',
          message: 'Please retry after 2 seconds.',
          innerError: { code: 'throttledRequest', 'request-id': 'e1f2', date: '2026-11-29T15:00:00' },
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 2 },
  },
  {
    id: 'token-echo-in-error-body-redacted',
    origin: 'Faultline issue 2 redaction (a token echoed back by a misbehaving API)',
    secrets: ['xoxb-1234-5678-h6SlackBotT0ken'],
    input: {
      status: 200,
      headers: {},
      body: { ok: false, error: 'invalid_auth', token: 'xoxb-1234-5678-h6SlackBotT0ken' },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
];
