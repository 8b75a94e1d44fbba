import { ServiceException } from '@smithy/smithy-client';
import type { ErrorCase } from '../corpus-case.js';

const NO = { retryable: false, retry_after: null } as const;
const SMITHY =
  '@smithy/core 3.41 submodules/client/smithy-client/exceptions.js ServiceException (the real class)';

/** ky source/errors/HTTPError.ts: the fetch Response itself is attached. */
function kyHttpError(response: Response, method: string, url: string): Error {
  const err = new Error(
    `Request failed with status code ${response.status} ${response.statusText}: ${method} ${url}`,
  );
  return Object.assign(err, {
    name: 'HTTPError',
    response,
    request: new Request(url, { method }),
    options: { method },
  });
}

/** ofetch src/error.ts FetchError: status/statusCode/statusText/data mirrored from the Response. */
function ofetchError(response: Response, data: unknown, url: string): Error {
  const err = new Error(`[GET] "${url}": ${response.status} ${response.statusText}`);
  return Object.assign(err, {
    name: 'FetchError',
    response,
    data,
    status: response.status,
    statusCode: response.status,
    statusText: response.statusText,
    statusMessage: response.statusText,
  });
}

/** node-fetch v2 src/fetch-error.js: type "system" carries the errno code; "request-timeout" carries none. */
function nodeFetchError(message: string, type: string, systemError?: { code: string }): Error {
  const err = new Error(message);
  Object.assign(err, { name: 'FetchError', type });
  if (systemError) Object.assign(err, { code: systemError.code, errno: systemError.code });
  return err;
}

/** @elastic/transport src/errors.ts ResponseError: statusCode/body/headers are prototype getters over `meta`. */
class ResponseError extends Error {
  meta: { statusCode: number; headers: Record<string, string>; body: unknown };
  constructor(meta: ResponseError['meta']) {
    super('Response Error');
    this.name = 'ResponseError';
    this.meta = meta;
    const type = (meta.body as { error?: { type?: string } }).error?.type;
    if (type) this.message = type;
  }
  get statusCode(): number {
    return this.meta.statusCode;
  }
  get body(): unknown {
    return this.meta.body;
  }
  get headers(): Record<string, string> {
    return this.meta.headers;
  }
}

const awsException = (
  name: string,
  fault: 'client' | 'server',
  status: number,
  message: string,
  retryable?: { throttling?: boolean },
): ServiceException => {
  const e = new ServiceException({
    name,
    $fault: fault,
    message,
    $metadata: { httpStatusCode: status, requestId: 'B4C7D9E1F2A3', attempts: 1, totalRetryDelay: 0 },
  });
  if (retryable) e.$retryable = retryable;
  return e;
};

/** fetch-based HTTP clients (ky, ofetch, node-fetch), Elasticsearch, and unmodeled AWS exceptions. */
export const httpClientCases: ErrorCase[] = [
  {
    id: 'ky-http-error-429-response-headers',
    origin: 'ky source/errors/HTTPError.ts (error.response is the fetch Response)',
    build: () =>
      kyHttpError(
        new Response('{"error":"rate limited"}', {
          status: 429,
          statusText: 'Too Many Requests',
          headers: { 'Retry-After': '9' },
        }),
        'GET',
        'https://api.example.com/v1/items',
      ),
    expected: { class: 'rate_limit', retryable: true, retry_after: 9 },
  },
  {
    id: 'ky-http-error-401',
    origin: 'ky source/errors/HTTPError.ts',
    build: () =>
      kyHttpError(
        new Response('', { status: 401, statusText: 'Unauthorized' }),
        'POST',
        'https://api.example.com/v1/orders',
      ),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'ofetch-fetch-error-503',
    origin: 'ofetch src/error.ts createFetchError',
    build: () =>
      ofetchError(
        new Response('<html>maintenance</html>', {
          status: 503,
          statusText: 'Service Unavailable',
          headers: { 'retry-after': '120' },
        }),
        '<html>maintenance</html>',
        'https://api.example.com/v1/health',
      ),
    expected: { class: 'transient', retryable: true, retry_after: 120 },
  },
  {
    id: 'node-fetch-system-econnrefused',
    origin: 'node-fetch v2 src/fetch-error.js (type "system", code from the socket error)',
    build: () =>
      nodeFetchError(
        'request to http://10.0.0.4:8080/v1 failed, reason: connect ECONNREFUSED 10.0.0.4:8080',
        'system',
        {
          code: 'ECONNREFUSED',
        },
      ),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'node-fetch-request-timeout',
    origin: 'node-fetch v2 src/index.js (FetchError type "request-timeout", no code)',
    build: () => nodeFetchError('network timeout at: https://api.example.com/v1/slow', 'request-timeout'),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'elastic-response-error-429-getters',
    origin: '@elastic/transport src/errors.ts ResponseError (statusCode is a prototype getter over meta)',
    build: () =>
      new ResponseError({
        statusCode: 429,
        headers: { 'x-elastic-product': 'Elasticsearch' },
        body: {
          error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' },
          status: 429,
        },
      }),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'elastic-response-error-404-index-missing',
    origin: '@elastic/transport ResponseError (index_not_found_exception)',
    build: () =>
      new ResponseError({
        statusCode: 404,
        headers: {},
        body: { error: { type: 'index_not_found_exception', reason: 'no such index [orders]' }, status: 404 },
      }),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'smithy-ses-throttling-unmodeled',
    origin: `${SMITHY}; SES "Maximum sending rate exceeded." (Throttling, 400)`,
    build: () => awsException('Throttling', 'client', 400, 'Maximum sending rate exceeded.'),
    expected: { class: 'rate_limit', code: 'Throttling', retryable: true },
  },
  {
    id: 'smithy-s3-slowdown-503',
    origin: `${SMITHY}; S3 SlowDown`,
    build: () => awsException('SlowDown', 'server', 503, 'Please reduce your request rate.'),
    expected: { class: 'rate_limit', code: 'SlowDown', retryable: true },
  },
  {
    id: 'smithy-retryable-throttling-trait',
    origin: `${SMITHY} ($retryable = { throttling: true } from the model's @retryable trait)`,
    note: 'An exception name nobody lists, but the service model marks it throttling: the typed signal wins.',
    build: () =>
      awsException('ConcurrentModificationBurstException', 'client', 400, 'Slow down', { throttling: true }),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'smithy-s3-access-denied',
    origin: `${SMITHY}; S3 AccessDenied 403`,
    build: () => awsException('AccessDenied', 'client', 403, 'Access Denied'),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'smithy-s3-no-such-bucket',
    origin: `${SMITHY}; S3 NoSuchBucket 404`,
    build: () => awsException('NoSuchBucket', 'client', 404, 'The specified bucket does not exist'),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'smithy-invalid-parameter-value',
    origin: `${SMITHY}; query-protocol InvalidParameterValue 400`,
    build: () =>
      awsException('InvalidParameterValue', 'client', 400, 'Value (abc) for parameter MaxItems is invalid.'),
    expected: { class: 'validation', ...NO },
  },
];
