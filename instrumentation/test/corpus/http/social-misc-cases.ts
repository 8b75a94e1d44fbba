import type { HttpCase } from '../corpus-case.js';

const META =
  'Meta Graph API error handling, https://developers.facebook.com/docs/graph-api/guides/error-handling';

/** Meta Graph API, Linear, Telegram, YouTube, Notion, Mailchimp: typed signals in the body. */
export const socialMiscCases: HttpCase[] = [
  {
    id: 'meta-graph-403-application-request-limit',
    origin: `${META} (code 4: application request limit reached, HTTP 403)`,
    input: {
      status: 403,
      headers: {
        'x-app-usage': '{"call_count":100,"total_cputime":25,"total_time":25}',
        'www-authenticate': 'OAuth "Facebook Platform"',
      },
      body: {
        error: {
          message: '(#4) Application request limit reached',
          type: 'OAuthException',
          is_transient: true,
          code: 4,
          fbtrace_id: 'A1b2C3d4',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'meta-graph-400-user-request-limit-17',
    origin: `${META} (code 17: user request limit reached)`,
    input: {
      status: 400,
      headers: {},
      body: {
        error: {
          message: '(#17) User request limit reached',
          type: 'OAuthException',
          is_transient: true,
          code: 17,
          fbtrace_id: 'B2',
        },
      },
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'meta-graph-401-access-token-expired-190',
    origin: `${META} (code 190: access token expired, subcode 463)`,
    input: {
      status: 401,
      headers: {},
      body: {
        error: {
          message: 'Error validating access token: Session has expired on Friday, 27-Nov-26 10:00:00 PST.',
          type: 'OAuthException',
          code: 190,
          error_subcode: 463,
          fbtrace_id: 'C3',
        },
      },
    },
    expected: { class: 'authentication', retryable: false, retry_after: null },
  },
  {
    id: 'meta-graph-500-is-transient',
    origin: `${META} (code 2, is_transient: true: "retry your request later")`,
    input: {
      status: 500,
      headers: {},
      body: {
        error: {
          message: 'An unexpected error has occurred. Please retry your request later.',
          type: 'OAuthException',
          is_transient: true,
          code: 2,
        },
      },
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'linear-graphql-ratelimited-on-400',
    origin:
      'Linear API docs, https://developers.linear.app/docs/graphql/working-with-the-graphql-api/rate-limiting (HTTP 400, extensions.code RATELIMITED)',
    note: 'HTTP 400 says validation; the body names a rate limit. The body wins.',
    input: {
      status: 400,
      headers: {
        'x-ratelimit-requests-remaining': '0',
        'x-ratelimit-requests-reset': String(Date.now() + 30000),
      },
      body: {
        errors: [
          {
            message: 'Rate limit exceeded',
            extensions: {
              code: 'RATELIMITED',
              type: 'ratelimited',
              userError: true,
              userPresentableMessage: 'Rate limit exceeded',
            },
          },
        ],
      },
    },
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'telegram-429-parameters-retry-after',
    origin:
      'Telegram Bot API docs, https://core.telegram.org/bots/api#responseparameters (parameters.retry_after seconds)',
    note: 'Telegram names the wait only in the body (ResponseParameters.retry_after).',
    input: {
      status: 429,
      headers: { 'content-type': 'application/json' },
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 35',
        parameters: { retry_after: 35 },
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 35 },
  },
  {
    id: 'telegram-400-chat-not-found',
    origin: 'Telegram Bot API (ok:false, error_code 400)',
    input: {
      status: 400,
      headers: {},
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'youtube-403-quota-exceeded',
    origin:
      'YouTube Data API errors, https://developers.google.com/youtube/v3/docs/errors (403 quotaExceeded: daily quota)',
    note: 'A daily quota: waiting seconds will not fix it (like OpenAI insufficient_quota): not retryable.',
    input: {
      status: 403,
      headers: {},
      body: {
        error: {
          code: 403,
          message: 'The request cannot be completed because you have exceeded your quota.',
          errors: [
            {
              message: 'The request cannot be completed because you have exceeded your quota.',
              domain: 'youtube.quota',
              reason: 'quotaExceeded',
            },
          ],
        },
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'notion-429-rate-limited',
    origin: 'Notion API docs, https://developers.notion.com/reference/request-limits',
    input: {
      status: 429,
      headers: { 'retry-after': '1' },
      body: {
        object: 'error',
        status: 429,
        code: 'rate_limited',
        message: 'You have been rate limited. Please try again in a few minutes.',
      },
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: 1 },
  },
  {
    id: 'notion-400-validation-error',
    origin: 'Notion API status codes, https://developers.notion.com/reference/status-codes',
    input: {
      status: 400,
      headers: {},
      body: {
        object: 'error',
        status: 400,
        code: 'validation_error',
        message: 'body failed validation: body.parent should be defined.',
      },
    },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'mailchimp-404-problem-without-extensions',
    origin:
      'Mailchimp Marketing API errors, https://mailchimp.com/developer/marketing/docs/errors/ (RFC 7807 body, no retry members)',
    input: {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'https://mailchimp.com/developer/marketing/docs/errors/',
        title: 'Resource Not Found',
        status: 404,
        detail: 'The requested resource could not be found.',
        instance: '995c5cb0-3280-4a6e-808b-3b096d0bb219',
      },
    },
    expected: { class: 'permanent', code: '404', retryable: false, retry_after: null },
  },
];
