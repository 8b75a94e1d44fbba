import type { HttpCase } from '../corpus-case.js';

const APOLLO =
  'Apollo Server 4 docs, https://www.apollographql.com/docs/apollo-server/data/errors#built-in-error-codes';
const SHOPIFY = 'Shopify GraphQL Admin API docs, https://shopify.dev/docs/api/usage/rate-limits';
const RFC9457 =
  'RFC 9457 Problem Details, https://www.rfc-editor.org/rfc/rfc9457 + extension members per seed article 001';
const JSONRPC = 'JSON-RPC 2.0 spec, https://www.jsonrpc.org/specification#error_object';
const OAUTH = 'RFC 6749 section 5.2, https://www.rfc-editor.org/rfc/rfc6749#section-5.2';

/** GraphQL, RFC 9457 problem bodies, JSON-RPC and OAuth 2 token-endpoint errors. */
export const protocolCases: HttpCase[] = [
  {
    id: 'shopify-graphql-throttled-200',
    origin: `${SHOPIFY} (errors[].extensions.code THROTTLED with extensions.cost.throttleStatus)`,
    input: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'a1b2c3d4-e5f6' },
      body: {
        errors: [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: {
          cost: {
            requestedQueryCost: 752,
            actualQueryCost: null,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 41, restoreRate: 100 },
          },
        },
      },
    },
    expected: { class: 'rate_limit', code: 'THROTTLED', retryable: true },
  },
  {
    id: 'shopify-rest-429-retry-after-decimal',
    origin:
      'Shopify REST Admin API docs, https://shopify.dev/docs/api/usage/rate-limits ("Retry-After: 2.0")',
    note: 'Shopify sends a decimal Retry-After ("2.0"); it is a number of seconds, not garbage.',
    input: {
      status: 429,
      headers: { 'Retry-After': '2.0', 'X-Shopify-Shop-Api-Call-Limit': '40/40' },
      body: {
        errors:
          'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
      },
    },
    expected: { class: 'rate_limit', code: '429', retryable: true, retry_after: 2 },
  },
  {
    id: 'shopify-graphql-access-denied-200',
    origin:
      'Shopify GraphQL Admin API docs, https://shopify.dev/docs/api/usage/response-codes (ACCESS_DENIED)',
    input: {
      status: 200,
      headers: {},
      body: {
        data: null,
        errors: [
          {
            message: 'Access denied for orders field. Required access: `read_orders` access scope.',
            extensions: {
              code: 'ACCESS_DENIED',
              documentation: 'https://shopify.dev/api/usage/access-scopes',
            },
          },
        ],
      },
    },
    expected: { class: 'authentication', code: 'ACCESS_DENIED', retryable: false, retry_after: null },
  },
  {
    id: 'apollo-unauthenticated-200',
    origin: `${APOLLO} (UNAUTHENTICATED)`,
    input: {
      status: 200,
      headers: { 'content-type': 'application/graphql-response+json' },
      body: {
        data: { me: null },
        errors: [{ message: 'You must be logged in', extensions: { code: 'UNAUTHENTICATED' } }],
      },
    },
    expected: { class: 'authentication', code: 'UNAUTHENTICATED', retryable: false, retry_after: null },
  },
  {
    id: 'apollo-forbidden-200',
    origin: `${APOLLO} (FORBIDDEN)`,
    input: {
      status: 200,
      headers: {},
      body: {
        data: null,
        errors: [{ message: 'Not allowed', path: ['deleteUser'], extensions: { code: 'FORBIDDEN' } }],
      },
    },
    expected: { class: 'authentication', code: 'FORBIDDEN', retryable: false, retry_after: null },
  },
  {
    id: 'apollo-bad-user-input-200',
    origin: `${APOLLO} (BAD_USER_INPUT)`,
    input: {
      status: 200,
      headers: {},
      body: {
        data: null,
        errors: [
          {
            message: 'Variable "$id" got invalid value "abc"; Int cannot represent non-integer value: "abc"',
            extensions: { code: 'BAD_USER_INPUT', argumentName: 'id' },
          },
        ],
      },
    },
    expected: { class: 'validation', code: 'BAD_USER_INPUT', retryable: false, retry_after: null },
  },
  {
    id: 'apollo-graphql-validation-failed-400',
    origin: `${APOLLO} (GRAPHQL_VALIDATION_FAILED, HTTP 400 since Apollo Server 4)`,
    input: {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"errors":[{"message":"Cannot query field \\"nmae\\" on type \\"User\\". Did you mean \\"name\\"?","locations":[{"line":1,"column":10}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}',
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'apollo-internal-server-error-200',
    origin: `${APOLLO} (INTERNAL_SERVER_ERROR, default for unexpected resolver errors)`,
    note: 'An unexpected resolver failure inside a 200; treated like a 500 (transient) per the issue table.',
    input: {
      status: 200,
      headers: {},
      body: {
        data: { order: null },
        errors: [
          {
            message: 'connect ETIMEDOUT 10.0.3.7:5432',
            path: ['order'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'hasura-invalid-jwt-200',
    origin:
      'Hasura docs, https://hasura.io/docs/latest/auth/authentication/jwt/ (extensions.code invalid-jwt, HTTP 200)',
    input: {
      status: 200,
      headers: {},
      body: {
        errors: [
          { extensions: { path: '$', code: 'invalid-jwt' }, message: 'Could not verify JWT: JWTExpired' },
        ],
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'graphql-success-no-errors',
    origin:
      'GraphQL over HTTP spec, https://graphql.github.io/graphql-over-http/draft/ (data without errors)',
    input: { status: 200, headers: {}, body: { data: { viewer: { login: 'octocat' } } } },
    expected: null,
  },
  {
    id: 'problem-404-resource-not-ready-retryable',
    origin: `${RFC9457}: 404 "resource_not_ready" with retryable true, retry_after 5`,
    note: 'The server says the identical call will work in 5 s: the body overrides the 404. Class transient (wait, repeat).',
    input: {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'https://api.example.com/problems/not-ready',
        title: 'Resource not ready',
        status: 404,
        code: 'resource_not_ready',
        message: 'The export is still being generated. Poll again shortly.',
        retryable: true,
        retry_after: 5,
        request_id: 'req_01J9ZK5A1B7D9E2F4G6H8J0K2L',
        details: [],
      },
    },
    expected: { class: 'transient', code: 'resource_not_ready', retryable: true, retry_after: 5 },
  },
  {
    id: 'problem-429-rate-limited-body-retry-after',
    origin: `${RFC9457}: 429 with retry_after 30 in the body and no header`,
    input: {
      status: 429,
      headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify({
        type: 'https://api.example.com/problems/rate-limited',
        title: 'Too many requests',
        status: 429,
        code: 'rate_limited',
        retryable: true,
        retry_after: 30,
      }),
    },
    expected: { class: 'rate_limit', code: 'rate_limited', retryable: true, retry_after: 30 },
  },
  {
    id: 'problem-422-currency-not-supported',
    origin: `${RFC9457}: 422 code currency_not_supported, retryable false`,
    input: {
      status: 422,
      headers: { 'Content-Type': 'application/problem+json' },
      body: {
        type: 'https://api.example.com/problems/currency-not-supported',
        title: 'Currency not supported',
        status: 422,
        code: 'currency_not_supported',
        retryable: false,
        retry_after: null,
        details: [
          { field: 'currency', pointer: '#/payment/currency', issue: 'not_in_enum', received: 'USDT' },
        ],
      },
    },
    expected: { class: 'validation', code: 'currency_not_supported', retryable: false, retry_after: null },
  },
  {
    id: 'problem-403-insufficient-scope',
    origin: `${RFC9457}: 403 insufficient_scope`,
    input: {
      status: 403,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'https://api.example.com/problems/insufficient-scope',
        status: 403,
        code: 'insufficient_scope',
        retryable: false,
      },
    },
    expected: { class: 'authentication', code: 'insufficient_scope', retryable: false, retry_after: null },
  },
  {
    id: 'problem-503-retryable-false-overrides',
    origin: `${RFC9457}: the body's retryable:false beats the 503`,
    input: {
      status: 503,
      headers: { 'content-type': 'application/problem+json', 'retry-after': '10' },
      body: {
        type: 'https://api.example.com/problems/tenant-suspended',
        title: 'Tenant suspended',
        status: 503,
        code: 'tenant_suspended',
        retryable: false,
      },
    },
    expected: { class: 'transient', code: 'tenant_suspended', retryable: false, retry_after: null },
  },
  {
    id: 'problem-409-optimistic-lock-retryable',
    origin: `${RFC9457}; seed 002 (409 optimistic-locking loser re-reads and tries again)`,
    note: 'A 409 the server marks retryable: class transient so the caller backs off instead of replanning.',
    input: {
      status: 409,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        code: 'version_conflict',
        retryable: true,
        retry_after: 0,
      },
    },
    expected: { class: 'transient', code: 'version_conflict', retryable: true, retry_after: 0 },
  },
  {
    id: 'jsonrpc-invalid-params-200',
    origin: `${JSONRPC} (-32602 Invalid params)`,
    input: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: {
        jsonrpc: '2.0',
        error: { code: -32602, message: 'Invalid params', data: 'expected 2 params, got 1' },
        id: 1,
      },
    },
    expected: { class: 'validation', code: '-32602', retryable: false, retry_after: null },
  },
  {
    id: 'jsonrpc-method-not-found-200',
    origin: `${JSONRPC} (-32601 Method not found)`,
    input: {
      status: 200,
      headers: {},
      body: { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: '7' },
    },
    expected: { class: 'permanent', code: '-32601', retryable: false, retry_after: null },
  },
  {
    id: 'jsonrpc-parse-error-200',
    origin: `${JSONRPC} (-32700 Parse error)`,
    input: {
      status: 200,
      headers: {},
      body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
    },
    expected: { class: 'validation', code: '-32700', retryable: false, retry_after: null },
  },
  {
    id: 'jsonrpc-success',
    origin: JSONRPC,
    input: { status: 200, headers: {}, body: { jsonrpc: '2.0', result: '0x10d4f', id: 1 } },
    expected: null,
  },
  {
    id: 'alchemy-jsonrpc-429',
    origin: 'Alchemy docs, https://docs.alchemy.com/reference/throughput (HTTP 429, JSON-RPC error code 429)',
    input: {
      status: 429,
      headers: {},
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: 429,
          message:
            'Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message.',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'oauth-invalid-grant-400',
    origin: `${OAUTH} (invalid_grant: refresh token expired or revoked; Google returns this on 400)`,
    note: 'HTTP 400 but the body says the grant is dead: escalate (re-consent), not repair.',
    input: {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'oauth-invalid-client-401',
    origin: `${OAUTH} (invalid_client)`,
    secrets: ['cs_live_9f8e7d6c5b4a'],
    input: {
      status: 401,
      headers: { 'www-authenticate': 'Basic realm="token"' },
      body: {
        error: 'invalid_client',
        error_description: 'Client authentication failed',
        client_secret: 'cs_live_9f8e7d6c5b4a',
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'oauth-invalid-request-400',
    origin: `${OAUTH} (invalid_request: missing parameter)`,
    input: {
      status: 400,
      headers: {},
      body: { error: 'invalid_request', error_description: "Missing required parameter: 'redirect_uri'" },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'mcp-tool-result-is-error-200',
    origin:
      'Model Context Protocol spec, https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling (tools/call result isError: true inside a JSON-RPC success)',
    note: 'A silent failure: HTTP 200, JSON-RPC success, but the tool says it failed. Nothing typed says why: permanent.',
    input: {
      status: 200,
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' },
      body: {
        jsonrpc: '2.0',
        id: 3,
        result: {
          content: [{ type: 'text', text: 'Failed to fetch weather data: API rate limit exceeded' }],
          isError: true,
        },
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
];
