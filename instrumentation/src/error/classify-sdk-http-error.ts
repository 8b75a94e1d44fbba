import { QUOTA, vendorMeaning } from '../http/vendor-codes.js';
import type { ClassifyContext, Envelope, ErrorClass } from '../types.js';
import { retryAfterOf } from './retry-after-of.js';
import { errorName, isObjectLike, read, readHttpStatus, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Errors that embed an HTTP response: vendor SDKs (Stripe, OpenAI, Anthropic, Google gaxios, Azure
 * RestError) and HTTP clients (axios, got, ky, superagent, Octokit, undici's ResponseError).
 * Their status, headers and body go through classifyHttpResponse, so Retry-After, X-Should-Retry,
 * Stripe-Should-Retry and quota bodies mean the same here as on a raw response.
 * Code rule: the vendor's own error code when it sends one ("card_declined",
 * "insufficient_quota"), else what classifyHttpResponse chose (the status, or the body's code).
 */

export type ClassifyResponse = (
  res: { status: number; headers?: unknown; body?: unknown },
  ctx?: ClassifyContext,
) => Envelope | null;

interface Embedded {
  status: number;
  headers: unknown;
  body: unknown;
  vendorCode: string | undefined;
  source: string;
}

/** Failures these SDKs raise before any response exists, by error name. */
const NO_RESPONSE: Record<string, [ErrorClass, string]> = {
  AI_LoadAPIKeyError: ['authentication', 'sdk'], // Vercel AI SDK: no API key configured
  AI_InvalidArgumentError: ['validation', 'sdk'],
  AI_TypeValidationError: ['validation', 'sdk'],
  StripeConnectionError: ['transient', 'sdk'],
  StripeSignatureVerificationError: ['authentication', 'sdk'],
  APIConnectionError: ['transient', 'sdk'], // OpenAI, Anthropic and other Stainless SDKs
  APIConnectionTimeoutError: ['transient', 'sdk'],
  APIUserAbortError: ['permanent', 'sdk'], // the caller aborted
};

/** axios's own codes when no response arrived (system codes go to the Node table). */
const AXIOS_CODES: Record<string, ErrorClass> = {
  ECONNABORTED: 'transient', // axios's timeout
  ERR_NETWORK: 'transient',
  ERR_CANCELED: 'permanent',
  ERR_BAD_OPTION: 'validation',
  ERR_BAD_OPTION_VALUE: 'validation',
  ERR_INVALID_URL: 'validation',
  ERR_FR_TOO_MANY_REDIRECTS: 'permanent',
  ERR_NOT_SUPPORT: 'permanent',
  ERR_DEPRECATED: 'permanent',
};

/** node-fetch FetchError `type` values raised without a system code. */
const FETCH_ERROR_TYPES: Record<string, ErrorClass> = {
  'request-timeout': 'transient',
  'body-timeout': 'transient',
  'max-redirect': 'permanent',
  'max-size': 'permanent',
  'invalid-json': 'permanent',
  'no-redirect': 'permanent',
};

/** Azure core-rest-pipeline RestError codes raised without a response. */
const AZURE_CODES: Record<string, ErrorClass> = {
  REQUEST_SEND_ERROR: 'transient',
  PARSE_ERROR: 'permanent',
};

const STAINLESS_NAMES = new Set([
  'APIError',
  'BadRequestError',
  'AuthenticationError',
  'PermissionDeniedError',
  'NotFoundError',
  'ConflictError',
  'UnprocessableEntityError',
  'RateLimitError',
  'InternalServerError',
]);

function stripe(err: unknown, type: string): Embedded | null {
  const status = readHttpStatus(err, 'statusCode');
  if (status === undefined) return null;
  const error: Record<string, unknown> = { type: read(err, 'rawType'), message: read(err, 'message') };
  const code = readString(err, 'code');
  if (code !== undefined) error.code = code;
  const decline = readString(err, 'decline_code');
  if (decline !== undefined) error.decline_code = decline;
  return { status, headers: read(err, 'headers'), body: { error }, vendorCode: code ?? type, source: 'sdk' };
}

/** OpenAI and Anthropic (Stainless-generated): `status`, `headers`, and `error` (a body or its inner error). */
function stainless(err: unknown): Embedded | null {
  const status = readHttpStatus(err, 'status');
  if (status === undefined) return null;
  const error = read(err, 'error');
  // Anthropic keeps the whole body ({ type: 'error', error: { type } }); OpenAI the inner object.
  const inner = read(error, 'error') ?? error;
  const vendorCode = readString(inner, 'code') ?? readString(inner, 'type') ?? readString(err, 'code');
  const body = read(error, 'error') !== undefined ? error : error === undefined ? undefined : { error };
  return { status, headers: read(err, 'headers'), body, vendorCode, source: 'sdk' };
}

/** Stainless SDKs (OpenAI, Anthropic…) name some subclasses only by constructor, and add new ones. */
function isStainless(err: unknown, name: string): boolean {
  if (STAINLESS_NAMES.has(name)) return true;
  return isObjectLike(err) && 'requestID' in err && 'headers' in err && 'error' in err;
}

/** Azure's HttpHeaders has get() and an iterator but no forEach: its toJSON() is the plain view. */
function plainHeaders(headers: unknown): unknown {
  if (!isObjectLike(headers) || typeof read(headers, 'forEach') === 'function') return headers;
  const toJSON = read(headers, 'toJSON');
  if (typeof toJSON !== 'function') return headers;
  try {
    return toJSON.call(headers);
  } catch {
    return headers;
  }
}

/** Google APIs: { error: { status: 'RESOURCE_EXHAUSTED', errors: [{ reason: 'rateLimitExceeded' }] } }. */
function googleCode(data: unknown): string | undefined {
  const error = read(data, 'error');
  const errors = read(error, 'errors');
  const reason = Array.isArray(errors) ? readString(errors[0], 'reason') : undefined;
  return reason ?? readString(error, 'status');
}

/** Where the status sits: `status` (fetch, axios), `statusCode` (Node, got), `code` (Shopify). */
function statusOf(obj: unknown): number | undefined {
  return (
    readHttpStatus(obj, 'status') ?? readHttpStatus(obj, 'statusCode') ?? numericStatus(read(obj, 'code'))
  );
}

/** A numeric `code` in the HTTP failure range (SendGrid, HubSpot, Cosmos DB put the status there). */
function numericStatus(code: unknown): number | undefined {
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code <= 599 ? code : undefined;
}

function fromResponse(response: unknown, source: string, vendorCode?: string): Embedded | null {
  const status = statusOf(response);
  if (status === undefined) return null;
  const headers = plainHeaders(read(response, 'headers'));
  let body = read(response, 'data');
  if (body === undefined) body = read(response, 'body');
  // A fetch Response's body is an unread stream: only plain values help the body rules.
  if (body !== null && typeof body === 'object' && typeof read(body, 'getReader') === 'function')
    body = undefined;
  return { status, headers, body, vendorCode, source };
}

/** Finds the embedded response of a known SDK or client error; `null` when there is none. */
export function findEmbeddedHttp(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string = errorName(err) ?? '',
): Embedded | null {
  const type = readString(err, 'type');
  if (type?.startsWith('Stripe')) return stripe(err, type);
  if (name.startsWith('Stripe')) return stripe(err, name);
  if (isStainless(err, name)) return stainless(err);
  if (read(err, 'isAxiosError') === true) return fromResponse(read(err, 'response'), 'http');
  if (
    name === 'GaxiosError' ||
    (name === 'Error' &&
      read(err, 'config') !== undefined &&
      read(err, 'response') !== undefined &&
      googleCode(read(read(err, 'response'), 'data')) !== undefined)
  ) {
    return fromResponse(read(err, 'response'), 'sdk', googleCode(read(read(err, 'response'), 'data')));
  }
  if (name === 'RestError') {
    const embedded = fromResponse(read(err, 'response'), 'sdk', readString(err, 'code'));
    const status = readHttpStatus(err, 'statusCode');
    if (embedded === null && status !== undefined) {
      return {
        status,
        headers: undefined,
        body: undefined,
        vendorCode: readString(err, 'code'),
        source: 'sdk',
      };
    }
    return embedded;
  }
  // @slack/web-api: a platform error is an HTTP 200 whose body says { ok: false, error }.
  if (readString(err, 'code') === 'slack_webapi_platform_error') {
    const data = read(err, 'data');
    return {
      status: 200,
      headers: undefined,
      body: data,
      vendorCode: readString(data, 'error'),
      source: 'sdk',
    };
  }
  const fallbackSource = ctx?.source ?? 'http';
  const response = read(err, 'response');
  if (response !== undefined && response !== null) {
    const embedded = fromResponse(response, fallbackSource);
    if (embedded !== null) return embedded;
  }
  // Speakeasy-generated SDKs (Mistral, Clerk, Vercel…): SDKError { statusCode, body, rawResponse }.
  const rawResponse = read(err, 'rawResponse');
  if (rawResponse !== undefined && rawResponse !== null) {
    const embedded = fromResponse(rawResponse, 'sdk');
    if (embedded !== null) {
      if (embedded.body === undefined) embedded.body = read(err, 'body');
      return embedded;
    }
  }
  // tRPC TRPCClientError: data { code: 'TOO_MANY_REQUESTS', httpStatus: 429 }.
  const data = read(err, 'data');
  const httpStatus = readHttpStatus(data, 'httpStatus');
  if (httpStatus !== undefined) {
    return {
      status: httpStatus,
      headers: undefined,
      body: undefined,
      vendorCode: readString(data, 'code'),
      source: fallbackSource,
    };
  }
  // @elastic/elasticsearch ResponseError keeps the response in `meta`.
  const meta = read(err, 'meta');
  if (meta !== undefined && meta !== null && typeof meta === 'object') {
    const embedded = fromResponse(meta, fallbackSource);
    if (embedded !== null) return embedded;
  }
  // Vercel AI SDK APICallError: statusCode, responseHeaders, responseBody (text).
  const responseHeaders = read(err, 'responseHeaders');
  if (responseHeaders !== undefined && responseHeaders !== null) {
    const status = readHttpStatus(err, 'statusCode');
    if (status !== undefined) {
      return {
        status,
        headers: responseHeaders,
        body: read(err, 'responseBody'),
        vendorCode: undefined,
        source: 'sdk',
      };
    }
  }
  // Errors that carry status and headers themselves: undici ResponseError, Octokit, Cosmos DB, HubSpot.
  const headers = read(err, 'headers');
  if (headers !== undefined && headers !== null) {
    const status = statusOf(err);
    if (status !== undefined)
      return { status, headers, body: read(err, 'body'), vendorCode: undefined, source: fallbackSource };
  }
  return null;
}

/** Typed no-response failures of the SDKs above (connection errors, caller aborts, axios codes). */
export function classifySdkNoResponse(err: unknown, name: string = errorName(err) ?? ''): Verdict | null {
  const known = NO_RESPONSE[name];
  if (known !== undefined) return { class: known[0], code: name, source: known[1], raw: { name } };
  // node-fetch v2/v3 FetchError: `type` says what failed when there is no system code.
  if (name === 'FetchError') {
    const type = readString(err, 'type');
    const cls = type === undefined ? undefined : FETCH_ERROR_TYPES[type];
    if (cls !== undefined && readString(err, 'code') === undefined) {
      return { class: cls, code: type as string, source: 'http', raw: { name, type } };
    }
  }
  const code = readString(err, 'code');
  if (code === undefined) return null;
  if (code === 'slack_webapi_rate_limited_error') {
    // @slack/web-api reads Retry-After for us and keeps it as `retryAfter` (seconds), with no status.
    const after = read(err, 'retryAfter');
    const verdict: Verdict = { class: 'rate_limit', code, source: 'sdk', raw: { code } };
    if (typeof after === 'number' && Number.isFinite(after) && after >= 0) verdict.retryAfter = after;
    return verdict;
  }
  if (read(err, 'isAxiosError') === true && code in AXIOS_CODES) {
    return { class: AXIOS_CODES[code] as ErrorClass, code, source: 'http', raw: { name, code } };
  }
  if (name === 'RestError' && code in AZURE_CODES) {
    return { class: AZURE_CODES[code] as ErrorClass, code, source: 'sdk', raw: { name, code } };
  }
  return null;
}

/** Classifies an embedded response through the HTTP classifier; null when it is not a failure. */
export function classifyEmbeddedHttp(
  err: unknown,
  embedded: Embedded,
  classifyResponse: ClassifyResponse,
): Verdict | null {
  const env = classifyResponse({ status: embedded.status, headers: embedded.headers, body: embedded.body });
  if (env === null) return null;
  const verdict: Verdict = {
    class: env.class,
    code: embedded.vendorCode ?? env.code,
    source: embedded.source,
    retryable: env.retryable,
    retryAfter: env.retry_after,
    raw: {},
    http: env,
  };
  // The SDK's own verdict (Vercel AI SDK `isRetryable`) is an explicit signal, like X-Should-Retry.
  const isRetryable = read(err, 'isRetryable');
  if (typeof isRetryable === 'boolean' && isRetryable !== verdict.retryable) {
    verdict.retryable = isRetryable;
    if (isRetryable && (verdict.class === 'permanent' || verdict.class === 'validation'))
      verdict.class = 'transient';
    if (!isRetryable) verdict.retryAfter = null;
  }
  // A vendor code the response classifier could not see (it lives on the error, not the body).
  const meaning = embedded.vendorCode === undefined ? undefined : vendorMeaning(embedded.vendorCode);
  if (meaning === QUOTA) {
    verdict.class = 'permanent';
    verdict.retryable = false;
    verdict.retryAfter = null;
  } else if (meaning === 'rate_limit' && env.class !== 'rate_limit') {
    verdict.class = 'rate_limit';
    verdict.retryable = true;
    verdict.retryAfter = env.retry_after ?? retryAfterOf(embedded.headers);
  }
  return verdict;
}
