import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorClass } from '../../../src/types.js';
import type { HttpCase } from '../corpus-case.js';

const RFC9110 =
  'RFC 9110, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3 (Retry-After: HTTP-date / delay-seconds)';
const ISSUE = 'Faultline issue 2 status table + seed 000 (Temporal HTTP retry recipe)';
const TEMPORAL = 'Temporal cookbook, https://docs.temporal.io/ (X-Should-Retry overrides the status)';

const statusCase = (status: number, cls: ErrorClass, retryable: boolean): HttpCase => ({
  id: `status-${status}-plain`,
  origin: ISSUE,
  input: { status, headers: { 'content-type': 'text/plain' }, body: '' },
  expected: { class: cls, code: String(status), retryable, retry_after: null },
});

const httpDate = (offsetSeconds: number): string => new Date(Date.now() + offsetSeconds * 1000).toUTCString();

/** Node's IncomingHttpHeaders as node:http hands it over: lowercase keys, set-cookie as an array. */
const incoming: IncomingHttpHeaders = {
  'retry-after': '9',
  'set-cookie': ['session=s%3AsEcReT-c00kie-value.abc; Path=/; HttpOnly', '__cf_bm=cfbmS3cretValue; path=/'],
  'content-type': 'application/json',
};

/** The status table, every Retry-After form, X-Should-Retry, header container shapes, redaction. */
export const statusHeaderCases: HttpCase[] = [
  statusCase(400, 'validation', false),
  statusCase(401, 'authentication', false),
  statusCase(403, 'authentication', false),
  statusCase(404, 'permanent', false),
  statusCase(405, 'permanent', false),
  statusCase(408, 'transient', true),
  statusCase(409, 'permanent', false),
  statusCase(410, 'permanent', false),
  statusCase(413, 'permanent', false),
  statusCase(422, 'validation', false),
  statusCase(429, 'rate_limit', true),
  statusCase(500, 'transient', true),
  statusCase(501, 'permanent', false),
  statusCase(502, 'transient', true),
  statusCase(503, 'transient', true),
  statusCase(504, 'transient', true),
  { id: 'status-200-empty-body', origin: ISSUE, input: { status: 200 }, expected: null },
  {
    id: 'status-204-no-content',
    origin: ISSUE,
    input: { status: 204, headers: {}, body: '' },
    expected: null,
  },
  {
    id: 'status-201-json',
    origin: ISSUE,
    input: { status: 201, headers: {}, body: { id: 'ord_1', ok: true } },
    expected: null,
  },
  {
    id: 'status-301-redirect',
    origin: ISSUE,
    input: { status: 301, headers: { location: 'https://example.com/new' }, body: '' },
    expected: null,
  },
  {
    id: 'status-200-html-body',
    origin: ISSUE,
    input: {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html><body>error page? no, a page about errors</body></html>',
    },
    expected: null,
  },
  {
    id: 'retry-after-seconds-503',
    origin: RFC9110,
    input: { status: 503, headers: { 'retry-after': '120' }, body: 'Service Unavailable' },
    expected: { class: 'transient', code: '503', retryable: true, retry_after: 120 },
  },
  {
    id: 'retry-after-http-date-429',
    origin: RFC9110,
    input: () => ({ status: 429, headers: { 'Retry-After': httpDate(30) }, body: '' }),
    expected: { class: 'rate_limit', code: '429', retryable: true, retry_after: { min: 27, max: 31 } },
  },
  {
    id: 'retry-after-http-date-past-429',
    origin: `${RFC9110}; issue 2 ("an unparseable or past value falls back to null")`,
    input: () => ({ status: 429, headers: { 'retry-after': httpDate(-3600) }, body: '' }),
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'retry-after-garbage-429',
    origin: `${RFC9110}; issue 2 (unparseable → null, never a guess)`,
    input: { status: 429, headers: { 'retry-after': 'soon-ish' }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'retry-after-negative-429',
    origin: `${RFC9110} (delay-seconds is a non-negative integer)`,
    input: { status: 429, headers: { 'retry-after': '-5' }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
  {
    id: 'retry-after-zero-429',
    origin: RFC9110,
    input: { status: 429, headers: { 'retry-after': '0' }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: 0 },
  },
  {
    id: 'retry-after-ms-only-503',
    origin: 'openai-node / anthropic-sdk-typescript src/client.ts (retry-after-ms, milliseconds)',
    input: { status: 503, headers: { 'retry-after-ms': '250' }, body: '' },
    expected: { class: 'transient', retryable: true, retry_after: 0.25 },
  },
  {
    id: 'retry-after-on-400-ignored',
    origin: `${RFC9110}; envelope rule: retry_after only when retryable`,
    input: { status: 400, headers: { 'retry-after': '30' }, body: { message: 'bad' } },
    expected: { class: 'validation', retryable: false, retry_after: null },
  },
  {
    id: 'retry-after-uppercase-header-name',
    origin: 'RFC 9110 section 5.1 (field names are case-insensitive)',
    input: { status: 429, headers: { 'RETRY-AFTER': '5' }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: 5 },
  },
  {
    id: 'retry-after-headers-instance',
    origin: 'WHATWG Fetch Headers (what fetch() returns)',
    input: () => ({
      status: 429,
      headers: new Headers({ 'Retry-After': '11', 'content-type': 'application/json' }),
      body: {},
    }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 11 },
  },
  {
    id: 'incoming-http-headers-set-cookie-array',
    origin: 'Node.js http.IncomingMessage.headers (set-cookie is always an array)',
    secrets: ['sEcReT-c00kie-value', 'cfbmS3cretValue'],
    input: { status: 503, headers: incoming, body: '{"error":"maintenance"}' },
    expected: { class: 'transient', retryable: true, retry_after: 9 },
  },
  {
    id: 'x-should-retry-false-on-503',
    origin: `${TEMPORAL}; openai-node src/client.ts shouldRetry() honours x-should-retry`,
    input: { status: 503, headers: { 'x-should-retry': 'false', 'retry-after': '5' }, body: '' },
    expected: { class: 'transient', retryable: false, retry_after: null },
  },
  {
    id: 'x-should-retry-true-on-409',
    origin: `${TEMPORAL}; openai-node src/client.ts shouldRetry()`,
    input: { status: 409, headers: { 'X-Should-Retry': 'true' }, body: '' },
    expected: { class: 'transient', retryable: true, retry_after: null },
    note: 'The server says the identical call may succeed: retryable; the class follows (transient).',
  },
  {
    id: 'x-should-retry-true-on-429-keeps-retry-after',
    origin: TEMPORAL,
    input: { status: 429, headers: { 'x-should-retry': 'true', 'retry-after': '3' }, body: '' },
    expected: { class: 'rate_limit', retryable: true, retry_after: 3 },
  },
  {
    id: 'secret-body-and-echoed-headers-redacted',
    origin: 'Faultline issue 2 redaction rules (Authorization, cookies, API keys, tokens in URLs)',
    secrets: ['sk_live_51HkR3alS3cret', 'Pa55w0rd!xyz', 'tok_Q1w2e3r4t5', 'AKIAIOSFODNN7EXAMPLE-secret'],
    input: {
      status: 500,
      headers: {
        authorization: 'Bearer sk_live_51HkR3alS3cret',
        cookie: 'sid=tok_Q1w2e3r4t5',
        'x-api-key': 'AKIAIOSFODNN7EXAMPLE-secret',
      },
      body: {
        error: 'upstream failed',
        request: {
          url: 'https://api.example.com/v1/charge?api_key=sk_live_51HkR3alS3cret&amount=5',
          dsn: 'postgres://app:Pa55w0rd!xyz@db.internal:5432/orders',
          password: 'Pa55w0rd!xyz',
          access_token: 'tok_Q1w2e3r4t5',
        },
      },
    },
    expected: { class: 'transient', code: '500', retryable: true, retry_after: null },
  },
  {
    id: 'huge-body-bounded',
    origin: 'Faultline issue 2 ("raw is depth- and size-capped (a few KiB)")',
    input: {
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: `<html><body>${'<p>Bad gateway upstream dump</p>'.repeat(20000)}</body></html>`,
    },
    expected: { class: 'transient', code: '502', retryable: true, retry_after: null },
  },
  {
    id: 'openai-insufficient-quota-with-retry-after',
    origin: 'OpenAI error codes doc (insufficient_quota) + a retry-after header some gateways add anyway',
    note: 'Billing exhaustion stays non-retryable even when a Retry-After is present: retry_after must be null.',
    input: {
      status: 429,
      headers: { 'retry-after': '20' },
      body: {
        error: {
          message: 'You exceeded your current quota.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
    },
    expected: { class: 'permanent', retryable: false, retry_after: null },
  },
  {
    id: 'x-should-retry-false-on-429-drops-retry-after',
    origin: TEMPORAL,
    input: { status: 429, headers: { 'x-should-retry': 'false', 'retry-after': '5' }, body: '' },
    expected: { class: 'rate_limit', retryable: false, retry_after: null },
  },
  {
    id: 'circular-body-object',
    origin: 'Faultline issue 2 (raw always JSON-serializable): a parsed body object with a cycle',
    input: () => {
      const body: Record<string, unknown> = { error: 'upstream' };
      body.self = body;
      return { status: 500, headers: {}, body };
    },
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'truncated-json-on-200-is-not-a-failure',
    origin: 'RFC 9110 (a 2xx with an unparseable body carries no error marker)',
    input: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":fal' },
    expected: null,
  },
  {
    id: 'header-value-undefined',
    origin: 'Node.js IncomingHttpHeaders (absent headers read as undefined)',
    input: {
      status: 429,
      headers: { 'retry-after': undefined, 'content-type': 'text/plain' },
      body: 'slow down',
    },
    expected: { class: 'rate_limit', retryable: true, retry_after: null },
  },
];
