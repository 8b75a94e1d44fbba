import { restatesStatus } from '../http/status-class.js';
import type { ClassifyContext } from '../types.js';
import { errorName, isObjectLike, read, readHttpStatus, readString } from './safe-read.js';

/**
 * Where SDK and HTTP-client errors keep the response they failed on: Stripe (`statusCode`,
 * `headers`), OpenAI/Anthropic (`status`, `headers`, `error` body), axios/got/gaxios/Azure
 * (`response`), Speakeasy SDKs (`rawResponse`), Elasticsearch (`meta`), the Vercel AI SDK
 * (`responseHeaders`), tRPC (`data.httpStatus`), Slack (a 200 whose `data` says ok: false).
 */

/** The response an error carries, ready for classifyHttpResponse. */
export interface EmbeddedHttp {
  status: number;
  headers: unknown;
  body: unknown;
  vendorCode: string | undefined;
  source: string;
}

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

function stripe(err: unknown): EmbeddedHttp | null {
  const status = readHttpStatus(err, 'statusCode');
  if (status === undefined) return null;
  const error: Record<string, unknown> = { type: read(err, 'rawType'), message: read(err, 'message') };
  const code = readString(err, 'code');
  if (code !== undefined) error.code = code;
  const decline = readString(err, 'decline_code');
  if (decline !== undefined) error.decline_code = decline;
  // `type` is the SDK's class name (StripeCardError) or the body's category: never the code.
  return { status, headers: read(err, 'headers'), body: { error }, vendorCode: code, source: 'sdk' };
}

/** OpenAI and Anthropic (Stainless-generated): `status`, `headers`, and `error` (a body or its inner error). */
function stainless(err: unknown): EmbeddedHttp | null {
  const status = readHttpStatus(err, 'status');
  if (status === undefined) return null;
  const error = read(err, 'error');
  // Anthropic keeps the whole body ({ type: 'error', error: { type } }); OpenAI the inner object.
  const inner = read(error, 'error') ?? error;
  const vendorCode = readString(inner, 'code') ?? readString(inner, 'type') ?? readString(err, 'code');
  const body = read(error, 'error') !== undefined ? error : error === undefined ? undefined : { error };
  return { status, headers: read(err, 'headers'), body, vendorCode, source: 'sdk' };
}

/**
 * An http-errors error (`createError(404)`, thrown by express and koa handlers): the same class
 * names as some Stainless ones (NotFoundError, BadRequestError…), but a server's own answer, not an
 * SDK's, which its boolean `expose` and `statusCode` beside `status` tell apart.
 */
function isHttpErrorsError(err: unknown): boolean {
  return typeof read(err, 'expose') === 'boolean' && read(err, 'statusCode') === read(err, 'status');
}

/** Stainless SDKs (OpenAI, Anthropic…) name some subclasses only by constructor, and add new ones. */
function isStainless(err: unknown, name: string): boolean {
  if (STAINLESS_NAMES.has(name)) return !isHttpErrorsError(err);
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

/**
 * Google APIs name the specific reason in the legacy `errors[].reason` (`userRateLimitExceeded`)
 * or in a google.rpc.ErrorInfo detail (`SERVICE_DISABLED`, `RATE_LIMIT_EXCEEDED`); the canonical
 * `status` (`PERMISSION_DENIED`, `RESOURCE_EXHAUSTED`) only restates the HTTP status, so it is
 * never the code (https://cloud.google.com/apis/design/errors#error_model).
 */
function googleCode(data: unknown): string | undefined {
  const error = read(data, 'error');
  const errors = read(error, 'errors');
  const reason = Array.isArray(errors) ? readString(errors[0], 'reason') : undefined;
  if (reason !== undefined) return reason;
  const details = read(error, 'details');
  if (!Array.isArray(details)) return undefined;
  for (const d of details.slice(0, 10)) {
    if (readString(d, '@type')?.endsWith('google.rpc.ErrorInfo')) return readString(d, 'reason');
  }
  return undefined;
}

/** A Google error body: `{ error: { status | errors } }`, whatever the error's class is called. */
function isGoogleBody(data: unknown): boolean {
  const error = read(data, 'error');
  return readString(error, 'status') !== undefined || Array.isArray(read(error, 'errors'));
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

function fromResponse(response: unknown, source: string, vendorCode?: string): EmbeddedHttp | null {
  const status = statusOf(response);
  if (status === undefined) return null;
  const headers = plainHeaders(read(response, 'headers'));
  let body = read(response, 'data');
  if (body === undefined) body = read(response, 'body');
  // Azure's PipelineResponse keeps the body as `parsedBody` (core-client) or `bodyAsText`.
  if (body === undefined) body = read(response, 'parsedBody') ?? read(response, 'bodyAsText');
  // A fetch Response's body is an unread stream: only plain values help the body rules.
  if (body !== null && typeof body === 'object' && typeof read(body, 'getReader') === 'function')
    body = undefined;
  return { status, headers, body, vendorCode, source };
}

/** A GraphQL `errors[]` member: a plain `{ message }` object, not the Error an AggregateError holds. */
function isGraphqlErrorList(errors: unknown): errors is unknown[] {
  if (!Array.isArray(errors) || errors.length === 0) return false;
  const first = errors[0];
  return isObjectLike(first) && !(first instanceof Error) && typeof read(first, 'message') === 'string';
}

/**
 * GraphQL clients keep the GraphQL result apart from any HTTP body: graphql-request's ClientError
 * has `response` = { errors, data, extensions, status, headers } (its `data` is the GraphQL data,
 * not the body), @octokit/graphql's GraphqlResponseError has `errors`, `data` and `headers` on
 * the error and no status at all (the failure came under a 200). The result is rebuilt as the
 * body the server sent, so `errors[].extensions.code`, GitHub's `type` and the rate-limit
 * headers are read as on a raw response.
 */
function graphqlResult(err: unknown, source: string): EmbeddedHttp | null {
  const response = read(err, 'response');
  const fromResponse = read(response, 'errors');
  const errors = isGraphqlErrorList(fromResponse) ? fromResponse : read(err, 'errors');
  if (!isGraphqlErrorList(errors)) return null;
  const holder = errors === fromResponse ? response : err;
  const body: Record<string, unknown> = { errors, data: read(holder, 'data') ?? null };
  const extensions = read(response, 'extensions');
  if (extensions !== undefined) body.extensions = extensions;
  return {
    status: statusOf(response) ?? 200,
    headers: plainHeaders(read(response, 'headers') ?? read(err, 'headers')),
    body,
    vendorCode: undefined,
    source,
  };
}

/** Finds the embedded response of a known SDK or client error; `null` when there is none. */
export function findEmbeddedHttp(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string = errorName(err) ?? '',
): EmbeddedHttp | null {
  const type = readString(err, 'type');
  if (type?.startsWith('Stripe') || name.startsWith('Stripe')) return stripe(err);
  if (isStainless(err, name)) return stainless(err);
  if (read(err, 'isAxiosError') === true) return fromResponse(read(err, 'response'), 'http');
  if (
    name === 'GaxiosError' ||
    (name === 'Error' &&
      read(err, 'config') !== undefined &&
      read(err, 'response') !== undefined &&
      isGoogleBody(read(read(err, 'response'), 'data')))
  ) {
    return fromResponse(read(err, 'response'), 'sdk', googleCode(read(read(err, 'response'), 'data')));
  }
  if (name === 'RestError') {
    const status = readHttpStatus(err, 'statusCode');
    // core-client copies the body's error.code; one that only restates the status is no code.
    let code = readString(err, 'code');
    if (code !== undefined && status !== undefined && restatesStatus(code, status)) code = undefined;
    const embedded = fromResponse(read(err, 'response'), 'sdk', code);
    if (embedded === null && status !== undefined) {
      return {
        status,
        headers: undefined,
        body: undefined,
        vendorCode: code,
        source: 'sdk',
      };
    }
    return embedded;
  }
  // twilio RestException (lib/base/RestException.js): the body's fields copied onto the error,
  // `more_info` renamed `moreInfo`; rebuilt as the body so Twilio's numeric code decides.
  const moreInfo = readString(err, 'moreInfo');
  if (moreInfo !== undefined && typeof read(err, 'code') === 'number') {
    const status = readHttpStatus(err, 'status');
    if (status !== undefined) {
      const code = read(err, 'code');
      const body = { code, message: read(err, 'message'), more_info: moreInfo, status };
      return { status, headers: undefined, body, vendorCode: String(code), source: 'sdk' };
    }
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
  const graphql = graphqlResult(err, fallbackSource);
  if (graphql !== null) return graphql;
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
