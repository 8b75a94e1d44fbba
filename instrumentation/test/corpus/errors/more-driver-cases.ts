import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestError as TediousRequestError } from 'tedious';
import type { ErrorCase } from '../corpus-case.js';
import { MongoServerError } from './mongodb-errors.js';
import { AxiosHeaders, axiosSettleError } from './vendor-sdk-errors.js';

const NO = { retryable: false, retry_after: null } as const;

/**
 * node-mssql lib/error/mssql-error.js + request-error.js: wraps the tedious error, copies `number` etc.,
 * keeps it as the enumerable `originalError`, and sets `name`.
 */
function mssqlRequestError(original: Error & Record<string, unknown>): Error {
  const err = new Error(original.message);
  Object.defineProperty(err, 'originalError', { enumerable: true, value: original });
  Object.assign(err, {
    code: original.code ?? 'EREQUEST',
    number: original.number,
    lineNumber: original.lineNumber,
    state: original.state,
    class: original.class,
    serverName: original.serverName,
    procName: original.procName,
    name: 'RequestError',
  });
  return err;
}

/** node-redis packages/client/lib/errors.ts: ErrorReply is a bare Error subclass (name "Error"), stack dropped. */
class ErrorReply extends Error {
  constructor(message: string) {
    super(message);
    this.stack = undefined;
  }
}

/** aws-sdk v2 lib/service.js extractError + lib/event_listeners.js: code, statusCode, retryable, retryDelay on a plain Error. */
function awsV2Error(
  code: string,
  message: string,
  statusCode: number,
  retryable: boolean,
  extra: Record<string, unknown> = {},
): Error {
  return Object.assign(new Error(message), {
    code,
    message,
    statusCode,
    retryable,
    time: new Date('2026-11-29T15:00:00Z'),
    requestId: 'Q2P3BVD0L5KPBN7SGH9F4M3NCRVV4KQNSO5AEMVJF66Q9ASUAAJG',
    ...extra,
  });
}

/** google-gax src/googleError.ts: a gRPC status (numeric code, details, metadata) plus decoded ErrorInfo. */
class GoogleError extends Error {
  code?: number;
  details?: string;
  reason?: string;
  domain?: string;
  errorInfoMetadata?: Record<string, string>;
}

function googleError(code: number, details: string, reason?: string): GoogleError {
  const e = new GoogleError(`${code} ${details}`);
  e.code = code;
  e.details = details;
  if (reason) {
    e.reason = reason;
    e.domain = 'googleapis.com';
    e.errorInfoMetadata = { service: 'pubsub.googleapis.com' };
  }
  return e;
}

/**
 * A real axios-style error whose `request` is the live node:http ClientRequest (as axios's http adapter
 * passes it): its `_header` string holds the raw request headers, Authorization included.
 */
async function axiosWithLiveRequest(secret: string): Promise<unknown> {
  const server = http.createServer((_req, res) => {
    res.writeHead(401, {
      'www-authenticate': 'Bearer error="invalid_token"',
      'content-type': 'application/json',
    });
    res.end('{"error":"invalid_token"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const { req, res } = await new Promise<{ req: http.ClientRequest; res: http.IncomingMessage }>(
      (resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, path: '/v1/me', headers: { Authorization: `Bearer ${secret}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ req, res }));
          },
        );
        req.once('error', reject);
        req.end();
      },
    );
    const config = {
      url: `http://127.0.0.1:${port}/v1/me`,
      method: 'get',
      headers: { Authorization: `Bearer ${secret}` },
    };
    return axiosSettleError({
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: new AxiosHeaders(res.headers as Record<string, string>),
      data: { error: 'invalid_token' },
      config,
      request: req,
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Wrapper drivers (node-mssql, node-redis, aws-sdk v2, google-gax), Envoy, and a live-request leak check. */
export const moreDriverCases: ErrorCase[] = [
  {
    id: 'node-mssql-request-error-deadlock',
    origin: 'node-mssql lib/error/request-error.js wrapping tedious RequestError 1205',
    build: () => {
      const inner = Object.assign(
        new TediousRequestError(
          'Transaction (Process ID 57) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.',
          'EREQUEST',
        ),
        { number: 1205, state: 51, class: 13, serverName: 'sql-prod', procName: '', lineNumber: 1 },
      );
      return mssqlRequestError(inner as unknown as Error & Record<string, unknown>);
    },
    ctx: { system: 'microsoft.sql_server' },
    expected: { class: 'transient', code: '1205', retryable: true, retry_after: 0 },
  },
  {
    id: 'node-mssql-request-error-unique',
    origin: 'node-mssql lib/error/request-error.js wrapping tedious RequestError 2627',
    build: () => {
      const inner = Object.assign(
        new TediousRequestError("Violation of PRIMARY KEY constraint 'PK_Orders'.", 'EREQUEST'),
        {
          number: 2627,
          state: 1,
          class: 14,
        },
      );
      return mssqlRequestError(inner as unknown as Error & Record<string, unknown>);
    },
    expected: { class: 'validation', code: '2627', ...NO },
  },
  {
    id: 'node-redis-error-reply-readonly',
    origin: 'node-redis packages/client/lib/errors.ts ErrorReply (name "Error", no stack)',
    build: () => new ErrorReply("READONLY You can't write against a read only replica."),
    ctx: { system: 'redis' },
    expected: { class: 'transient', code: 'READONLY', retryable: true },
  },
  {
    id: 'node-redis-error-reply-wrongpass',
    origin: 'node-redis ErrorReply',
    build: () => new ErrorReply('WRONGPASS invalid username-password pair or user is disabled.'),
    ctx: { system: 'redis' },
    expected: { class: 'authentication', code: 'WRONGPASS', ...NO },
  },
  {
    id: 'aws-sdk-v2-provisioned-throughput',
    origin: 'aws-sdk-js v2 lib/protocol/json.js extractError + lib/service.js (code, statusCode, retryable)',
    build: () =>
      awsV2Error(
        'ProvisionedThroughputExceededException',
        'The level of configured provisioned throughput for the table was exceeded.',
        400,
        true,
        {
          retryDelay: 48.3,
        },
      ),
    expected: { class: 'rate_limit', code: 'ProvisionedThroughputExceededException', retryable: true },
  },
  {
    id: 'aws-sdk-v2-conditional-check-failed',
    origin: 'aws-sdk-js v2 (retryable false)',
    build: () => awsV2Error('ConditionalCheckFailedException', 'The conditional request failed', 400, false),
    expected: { class: 'permanent', code: 'ConditionalCheckFailedException', ...NO },
  },
  {
    id: 'aws-sdk-v2-networking-error',
    origin: 'aws-sdk-js v2 lib/event_listeners.js (NetworkingError wraps the socket error, retryable true)',
    build: () =>
      awsV2Error('NetworkingError', 'socket hang up', 0, true, {
        originalError: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        hostname: 'dynamodb.eu-west-1.amazonaws.com',
      }),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'aws-sdk-v2-expired-token',
    origin: 'aws-sdk-js v2 (ExpiredTokenException, 400)',
    build: () =>
      awsV2Error(
        'ExpiredTokenException',
        'The security token included in the request is expired',
        400,
        false,
      ),
    expected: { class: 'authentication', code: 'ExpiredTokenException', ...NO },
  },
  {
    id: 'google-gax-resource-exhausted',
    origin: 'google-gax src/googleError.ts (numeric gRPC code 8 + ErrorInfo reason)',
    build: () =>
      googleError(8, 'Quota exceeded for quota metric Publisher throughput', 'RATE_LIMIT_EXCEEDED'),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'google-gax-unavailable',
    origin: 'google-gax src/googleError.ts (numeric gRPC code 14)',
    build: () => googleError(14, 'The service is currently unavailable.'),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'mongo-bulk-write-duplicate',
    origin: 'mongodb src/bulk/common.ts MongoBulkWriteError (code of the first write error, writeErrors[])',
    build: () =>
      new MongoServerError({
        message:
          'E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: "a@b.c" }',
        code: 11000,
        writeErrors: [{ index: 0, code: 11000, errmsg: 'E11000 duplicate key error' }],
      }),
    ctx: { system: 'mongodb' },
    expected: { class: 'validation', code: '11000', ...NO },
  },
  {
    id: 'axios-live-client-request-header-leak',
    origin:
      'axios lib/adapters/http.js (error.request is the live http.ClientRequest; its _header holds Authorization)',
    secrets: ['h6LiveReqBearerS3cret'],
    build: () => axiosWithLiveRequest('h6LiveReqBearerS3cret'),
    expected: { class: 'authentication', ...NO },
  },
];
