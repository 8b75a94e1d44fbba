/**
 * Error classes of vendor SDKs that are not installed here, reproduced from their source (cited per
 * class) with the fields, getters, enumerability and header containers the real ones have.
 */

// --- Stainless SDKs: openai-node src/core/error.ts, anthropic-sdk-typescript src/core/error.ts ---------

function stainlessMessage(status: number | undefined, error: unknown, message: string | undefined): string {
  const e = error as { message?: unknown } | undefined;
  const msg = e?.message
    ? typeof e.message === 'string'
      ? e.message
      : JSON.stringify(e.message)
    : error
      ? JSON.stringify(error)
      : message;
  if (status && msg) return `${status} ${msg}`;
  if (status) return `${status} status code (no body)`;
  return msg || '(no status code or body)';
}

/**
 * One Stainless SDK's error classes. Built per SDK so each gets the real class names (APIError,
 * RateLimitError, APIConnectionTimeoutError, …): the SDKs never set `name`, so `err.name` is "Error" and
 * only `constructor.name` tells them apart.
 */
function stainlessSdk(requestIdHeader: string, withType: (error: unknown) => Record<string, unknown>) {
  class APIError extends Error {
    readonly status: number | undefined;
    readonly headers: Headers | undefined;
    readonly error: unknown;
    readonly requestID: string | null | undefined;

    constructor(
      status: number | undefined,
      error: unknown,
      message: string | undefined,
      headers: Headers | undefined,
    ) {
      super(stainlessMessage(status, error, message));
      this.status = status;
      this.headers = headers;
      this.requestID = headers?.get(requestIdHeader);
      this.error = error;
      Object.assign(this, withType(error));
    }
  }
  class BadRequestError extends APIError {}
  class AuthenticationError extends APIError {}
  class RateLimitError extends APIError {}
  class InternalServerError extends APIError {}
  class APIConnectionError extends APIError {
    constructor({ message, cause }: { message?: string; cause?: Error }) {
      super(undefined, undefined, message || 'Connection error.', undefined);
      if (cause) (this as { cause?: unknown }).cause = cause;
    }
  }
  class APIConnectionTimeoutError extends APIConnectionError {
    constructor({ message }: { message?: string } = {}) {
      super({ message: message ?? 'Request timed out.' });
    }
  }
  return {
    APIError,
    BadRequestError,
    AuthenticationError,
    RateLimitError,
    InternalServerError,
    APIConnectionError,
    APIConnectionTimeoutError,
  };
}

/** openai-node: code/param/type copied from the body's error object. */
export const openai = stainlessSdk('x-request-id', (error) => {
  const data = error as Record<string, unknown> | undefined;
  return { code: data?.code, param: data?.param, type: data?.type };
});

/** anthropic-sdk-typescript: `error` is the whole body, `type` is body.error.type. */
export const anthropic = stainlessSdk('request-id', (error) => ({
  type: (error as { error?: { type?: string } } | undefined)?.error?.type ?? null,
}));

// --- stripe-node src/Error.ts + src/RequestSender.ts (_handleResponse sets headers/statusCode/requestId) --

export interface StripeRawError {
  type?: string;
  message?: string;
  code?: string;
  doc_url?: string;
  param?: string;
  decline_code?: string;
  headers?: Record<string, string>;
  requestId?: string;
  statusCode?: number;
  detail?: unknown;
}

export class StripeError extends Error {
  readonly type: string;
  readonly raw: unknown;
  readonly rawType?: string;
  readonly headers?: Record<string, string>;
  readonly requestId?: string;
  readonly code?: string;
  readonly doc_url?: string;
  readonly param?: string;
  readonly detail?: unknown;
  readonly statusCode?: number;
  readonly decline_code?: string;

  constructor(raw: StripeRawError = {}) {
    super(raw.message);
    this.type = this.constructor.name;
    this.raw = raw;
    this.rawType = raw.type;
    this.code = raw.code;
    this.doc_url = raw.doc_url;
    this.param = raw.param;
    this.detail = raw.detail;
    this.headers = raw.headers;
    this.requestId = raw.requestId;
    this.statusCode = raw.statusCode;
    this.decline_code = raw.decline_code;
  }
}
export class StripeCardError extends StripeError {}
export class StripeInvalidRequestError extends StripeError {}
export class StripeAPIError extends StripeError {}
export class StripeAuthenticationError extends StripeError {}
export class StripeRateLimitError extends StripeError {}
export class StripePermissionError extends StripeError {}
export class StripeInvalidGrantError extends StripeError {}
export class StripeIdempotencyError extends StripeError {}
export class StripeConnectionError extends StripeError {}

/** What RequestSender does with a non-2xx JSON body before throwing. */
export function stripeResponseError(
  Ctor: new (raw: StripeRawError) => StripeError,
  statusCode: number,
  headers: Record<string, string>,
  error: StripeRawError,
): StripeError {
  return new Ctor({ ...error, headers, statusCode, requestId: headers['request-id'] });
}

// --- axios lib/core/AxiosError.js + lib/core/settle.js + lib/core/AxiosHeaders.js -------------------------

/** Minimal AxiosHeaders: own enumerable header properties plus a case-insensitive get(). */
export class AxiosHeaders {
  [key: string]: unknown;
  constructor(headers: Record<string, string>) {
    Object.assign(this, headers);
  }
  get(name: string): unknown {
    const key = Object.keys(this).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : this[key];
  }
}

export interface AxiosResponseLike {
  status: number;
  statusText: string;
  headers: AxiosHeaders;
  data: unknown;
  config: Record<string, unknown>;
  request?: unknown;
}

export class AxiosError extends Error {
  isAxiosError = true;
  code?: string;
  config?: Record<string, unknown>;
  request?: unknown;
  response?: AxiosResponseLike;
  status?: number | null;

  constructor(
    message: string,
    code?: string,
    config?: Record<string, unknown>,
    request?: unknown,
    response?: AxiosResponseLike,
  ) {
    super(message);
    this.name = 'AxiosError';
    if (code) this.code = code;
    if (config) this.config = config;
    if (request) this.request = request;
    if (response) {
      this.response = response;
      this.status = response.status ?? null;
    }
  }
}

/** settle(): ERR_BAD_REQUEST for 4xx, ERR_BAD_RESPONSE for 5xx. */
export function axiosSettleError(response: AxiosResponseLike): AxiosError {
  const code = ['ERR_BAD_REQUEST', 'ERR_BAD_RESPONSE'][Math.floor(response.status / 100) - 4];
  return new AxiosError(
    `Request failed with status code ${response.status}`,
    code,
    response.config,
    response.request,
    response,
  );
}

// --- got source/core/errors.ts (request/response are non-enumerable, options enumerable) --------------------

export const GotRequestError = class RequestError extends Error {
  code: string;
  input?: string;
  declare readonly options: Record<string, unknown>;
  declare readonly response?: Record<string, unknown>;

  constructor(
    message: string,
    error: { code?: string },
    options: Record<string, unknown>,
    response?: Record<string, unknown>,
  ) {
    super(message, { cause: error });
    this.name = 'RequestError';
    this.code = error.code ?? 'ERR_GOT_REQUEST_ERROR';
    Object.defineProperty(this, 'options', { value: options, enumerable: true });
    Object.defineProperty(this, 'response', { value: response, enumerable: false });
  }
};
export const GotHTTPError = class HTTPError extends GotRequestError {
  constructor(
    response: { statusCode: number; statusMessage: string; headers: Record<string, string>; body: unknown },
    options: Record<string, unknown>,
  ) {
    super(`Response code ${response.statusCode} (${response.statusMessage})`, {}, options, response);
    this.name = 'HTTPError';
    this.code = 'ERR_NON_2XX_3XX_RESPONSE';
  }
};
export const GotTimeoutError = class TimeoutError extends GotRequestError {
  timings: Record<string, number>;
  event: string;
  constructor(options: Record<string, unknown>) {
    super("Timeout awaiting 'request' for 5000ms", { code: 'ETIMEDOUT' }, options);
    this.name = 'TimeoutError';
    this.event = 'request';
    this.timings = { start: 1, socket: 2 };
  }
};

// --- gaxios src/common.ts (v7): response is a fetch Response-like with config+data; code from the cause -----

export class GaxiosError extends Error {
  code?: string | number;
  status?: number;
  error?: Error;
  constructor(
    message: string,
    public config: Record<string, unknown>,
    public response?: Record<string, unknown>,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.error = cause instanceof Error ? cause : undefined;
    if (this.response) this.status = this.response.status as number;
    if (cause && typeof cause === 'object' && 'code' in cause) {
      const c = (cause as { code: unknown }).code;
      if (typeof c === 'string' || typeof c === 'number') this.code = c;
    }
  }
}

export interface AzureResponse {
  status: number;
  headers: AzureHttpHeaders;
  bodyAsText?: string;
}

// --- @azure/core-rest-pipeline src/restError.ts (request/response non-enumerable; HttpHeaders with get()) ---

export class AzureHttpHeaders {
  private readonly map = new Map<string, string>();
  constructor(raw: Record<string, string>) {
    for (const [k, v] of Object.entries(raw)) this.map.set(k.toLowerCase(), v);
  }
  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase());
  }
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.map);
  }
}

export const AzureRestError = class RestError extends Error {
  static readonly REQUEST_SEND_ERROR = 'REQUEST_SEND_ERROR';
  code?: string;
  statusCode?: number;
  declare request?: unknown;
  declare response?: AzureResponse;

  constructor(
    message: string,
    options: {
      code?: string;
      statusCode?: number;
      request?: unknown;
      response?: AzureResponse;
    } = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.code = options.code;
    this.statusCode = options.statusCode;
    Object.defineProperty(this, 'request', { value: options.request, enumerable: false });
    Object.defineProperty(this, 'response', { value: options.response, enumerable: false });
  }
};

// --- twilio-node src/base/RestException.ts ------------------------------------------------------------------

export const TwilioRestException = class RestException extends Error {
  status: number;
  code?: number;
  moreInfo?: string;
  details?: object;
  constructor(response: { statusCode: number; body: string | Record<string, unknown> }) {
    super(`[HTTP ${response.statusCode}] Failed to execute request`);
    const body = (typeof response.body === 'string' ? JSON.parse(response.body) : response.body) as Record<
      string,
      unknown
    >;
    this.status = response.statusCode;
    this.message = body.message as string;
    this.code = body.code as number;
    this.moreInfo = body.more_info as string;
    this.details = body.details as object;
  }
};

// --- @slack/web-api src/errors.ts factories -------------------------------------------------------------------

export function slackPlatformError(result: { ok: false; error: string; [k: string]: unknown }): Error {
  return Object.assign(new Error(`An API error occurred: ${result.error}`), {
    code: 'slack_webapi_platform_error',
    data: result,
  });
}
export function slackRateLimitedError(retrySec: number): Error {
  return Object.assign(
    new Error(`A rate-limit has been reached, you may retry this request in ${retrySec} seconds`),
    {
      code: 'slack_webapi_rate_limited_error',
      retryAfter: retrySec,
    },
  );
}
export function slackHttpError(
  status: number,
  statusText: string,
  headers: Record<string, string>,
  body: unknown,
): Error {
  return Object.assign(new Error(`An HTTP protocol error occurred: statusCode = ${status}`), {
    code: 'slack_webapi_http_error',
    statusCode: status,
    statusMessage: statusText,
    headers,
    body,
  });
}
export function slackRequestError(original: Error): Error {
  return Object.assign(new Error(`A request error occurred: ${original.message}`), {
    code: 'slack_webapi_request_error',
    original,
  });
}

export interface OctokitResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  data: unknown;
}

// --- @octokit/request-error src/index.ts (authorization and URL secrets are redacted by octokit itself) ------

export const OctokitRequestError = class RequestError extends Error {
  override name = 'HttpError';
  status: number;
  request: { method: string; url: string; headers: Record<string, string> };
  response?: OctokitResponse;

  constructor(
    message: string,
    statusCode: number,
    options: {
      request: { method: string; url: string; headers: Record<string, string> };
      response?: OctokitResponse;
    },
  ) {
    super(message);
    this.status = Number.parseInt(String(statusCode), 10);
    if (Number.isNaN(this.status)) this.status = 0;
    if (options.response) this.response = options.response;
    const requestCopy = { ...options.request, headers: { ...options.request.headers } };
    if (options.request.headers.authorization) {
      requestCopy.headers.authorization = options.request.headers.authorization.replace(
        /(?<! ) .*$/,
        ' [REDACTED]',
      );
    }
    requestCopy.url = requestCopy.url
      .replace(/\bclient_secret=\w+/g, 'client_secret=[REDACTED]')
      .replace(/\baccess_token=\w+/g, 'access_token=[REDACTED]');
    this.request = requestCopy;
  }
};
