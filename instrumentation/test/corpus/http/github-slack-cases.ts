import type { HttpCase } from '../corpus-case.js';

const GH_DOCS =
  'GitHub REST docs, https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api';
const GH_TROUBLE =
  'GitHub REST docs, https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api';
const SLACK = 'Slack Web API docs, https://api.slack.com/web#evaluating_responses';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** GitHub REST and GraphQL, Slack Web API: rate limits on 403 and failures inside 200 bodies. */
export const githubSlackCases: HttpCase[] = [
  {
    id: 'github-primary-rate-limit-403',
    origin: `${GH_DOCS} (x-ratelimit-remaining: 0 on 403, wait until x-ratelimit-reset)`,
    note: 'GitHub documents: when x-ratelimit-remaining is 0, do not retry until x-ratelimit-reset (epoch seconds).',
    input: () => ({
      status: 403,
      headers: {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(nowSeconds() + 60),
        'x-ratelimit-used': '5000',
        'x-ratelimit-resource': 'core',
        'x-github-request-id': 'C2A4:3B6E:1F2A3B:2E3F4A:65A1B2C3',
        'content-type': 'application/json; charset=utf-8',
      },
      body: {
        message:
          'API rate limit exceeded for user ID 1234567. If you reach out to GitHub Support for help, please include the request ID C2A4:3B6E:1F2A3B:2E3F4A:65A1B2C3.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-the-rate-limit-for-the-rest-api',
        status: '403',
      },
    }),
    expected: { class: 'rate_limit', retryable: true, retry_after: { min: 55, max: 62 } },
  },
  {
    id: 'github-primary-rate-limit-429',
    origin: `${GH_DOCS} ("you will receive a 403 or 429 response")`,
    input: () => ({
      status: 429,
      headers: {
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(nowSeconds() + 120),
        'x-ratelimit-resource': 'core',
      },
      body: '{"message":"API rate limit exceeded for 203.0.113.7. (But here\'s the good news: Authenticated requests get a higher rate limit.)","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}',
    }),
    expected: { class: 'rate_limit', code: '429', retryable: true, retry_after: { min: 115, max: 122 } },
  },
  {
    id: 'github-secondary-rate-limit-403-retry-after',
    origin: `${GH_DOCS}#about-secondary-rate-limits (403 + retry-after header)`,
    input: {
      status: 403,
      headers: {
        'retry-after': '60',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4890',
        'content-type': 'application/json; charset=utf-8',
      },
      body: {
        message:
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 8E2C:2A1B:5C3D.',
        documentation_url:
          'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 60 },
  },
  {
    id: 'github-secondary-rate-limit-403-body-only',
    origin: `${GH_DOCS}#about-secondary-rate-limits (no retry-after, remaining > 0: the body is the only signal)`,
    note: 'GitHub says "wait at least one minute" in prose; the classifier must not guess a number, so null.',
    input: {
      status: 403,
      headers: { 'x-ratelimit-remaining': '4321', 'x-ratelimit-limit': '5000' },
      body: '{"message":"You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}',
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'github-403-resource-not-accessible',
    origin: `${GH_TROUBLE} (403 permission, rate limit not exhausted)`,
    input: {
      status: 403,
      headers: {
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-limit': '5000',
        'x-accepted-github-permissions': 'issues=write',
      },
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
        status: '403',
      },
    },
    expected: { class: 'authentication', code: '403', retryable: false, retry_after: null },
  },
  {
    id: 'github-401-bad-credentials',
    origin: `${GH_TROUBLE}#requires-authentication`,
    secrets: ['ghp_R3alL00kingT0kenAbcdefghijklmnop12'],
    input: {
      status: 401,
      headers: {
        'www-authenticate': 'Bearer realm="GitHub"',
        'x-github-request-id': 'D1F0:7A1C:9B2E',
        'x-echo-authorization': 'token ghp_R3alL00kingT0kenAbcdefghijklmnop12',
      },
      body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
    },
    expected: { class: 'authentication', code: '401', retryable: false, retry_after: null },
  },
  {
    id: 'github-404-not-found',
    origin: GH_TROUBLE,
    input: {
      status: 404,
      headers: { 'x-ratelimit-remaining': '4998' },
      body: {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository',
        status: '404',
      },
    },
    expected: { class: 'permanent', code: '404', retryable: false, retry_after: null },
  },
  {
    id: 'github-422-validation-failed',
    origin:
      'GitHub REST docs, https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api (422 Validation Failed, errors[].code)',
    input: {
      status: 422,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
        documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
        status: '422',
      },
    },
    expected: { class: 'validation', code: '422', retryable: false, retry_after: null },
  },
  {
    id: 'github-graphql-rate-limited-200',
    origin:
      'GitHub GraphQL docs, https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api (errors[].type RATE_LIMITED on 200)',
    input: () => ({
      status: 200,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(nowSeconds() + 30),
        'x-ratelimit-resource': 'graphql',
      },
      body: { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1234567.' }] },
    }),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'github-graphql-not-found-200',
    origin:
      'GitHub GraphQL API, errors[].type NOT_FOUND (https://docs.github.com/en/graphql/guides/forming-calls-with-graphql)',
    input: {
      status: 200,
      headers: {},
      body: {
        data: { repository: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['repository'],
            locations: [{ line: 7, column: 3 }],
            message: "Could not resolve to a Repository with the name 'octo/nope'.",
          },
        ],
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'slack-invalid-auth-200',
    origin: `${SLACK}; https://api.slack.com/methods/chat.postMessage#errors (invalid_auth)`,
    input: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { ok: false, error: 'invalid_auth' },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'slack-not-authed-200-string-body',
    origin: `${SLACK} (not_authed, body still a string)`,
    input: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"ok":false,"error":"not_authed"}',
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'slack-token-revoked-200',
    origin: 'Slack docs, https://api.slack.com/methods/auth.test#errors (token_revoked)',
    input: { status: 200, headers: {}, body: { ok: false, error: 'token_revoked' } },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'slack-missing-scope-200',
    origin:
      'Slack docs, https://api.slack.com/methods/chat.postMessage#errors (missing_scope, needed/provided)',
    input: {
      status: 200,
      headers: {},
      body: {
        ok: false,
        error: 'missing_scope',
        needed: 'chat:write:bot',
        provided: 'identify,channels:read',
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'slack-channel-not-found-200',
    origin: 'Slack docs, https://api.slack.com/methods/chat.postMessage#errors (channel_not_found)',
    input: { status: 200, headers: {}, body: { ok: false, error: 'channel_not_found' } },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'slack-invalid-arguments-200',
    origin:
      'Slack docs, https://api.slack.com/web#evaluating_responses (invalid_arguments + response_metadata.messages)',
    input: {
      status: 200,
      headers: {},
      body: {
        ok: false,
        error: 'invalid_arguments',
        response_metadata: { messages: ['[ERROR] missing required field: channel'] },
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'slack-ratelimited-429',
    origin: 'Slack docs, https://api.slack.com/apis/rate-limits (HTTP 429 + Retry-After seconds)',
    input: { status: 429, headers: { 'retry-after': '30' }, body: { ok: false, error: 'ratelimited' } },
    expected: { class: 'rate_limit', retryable: true, retry_after: 30 },
  },
  {
    id: 'slack-internal-error-200',
    origin:
      'Slack docs, https://api.slack.com/methods/chat.postMessage#errors ("internal_error: ... likely due to a transient issue on our end")',
    input: { status: 200, headers: {}, body: { ok: false, error: 'internal_error' } },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'slack-ok-true-with-warning-is-success',
    origin:
      'Slack docs, https://api.slack.com/web#evaluating_responses ("ok": true with a "warning" is a success)',
    input: {
      status: 200,
      headers: {},
      body: { ok: true, warning: 'missing_charset', channel: 'C123', ts: '1503435956.000247' },
    },
    expected: null,
  },
  {
    id: 'github-retry-after-beats-ratelimit-reset',
    origin: `${GH_DOCS} ("If the retry-after response header is present, you should not retry until after that many seconds … Otherwise … x-ratelimit-reset")`,
    input: () => ({
      status: 403,
      headers: {
        'retry-after': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(nowSeconds() + 3600),
      },
      body: {
        message: 'You have exceeded a secondary rate limit.',
        documentation_url: 'https://docs.github.com/rest',
      },
    }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 60 },
  },
  {
    id: 'github-ratelimit-reset-in-the-past',
    origin: `${GH_DOCS}; issue 2 ("a past value falls back to null")`,
    input: () => ({
      status: 429,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSeconds() - 600) },
      body: { message: 'API rate limit exceeded' },
    }),
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
];
