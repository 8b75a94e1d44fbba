import { constants } from 'node:os';
import { errors as undiciErrors } from 'undici';
import type { ErrorCase } from '../corpus-case.js';
import { grpcDeadline, grpcStatusError, grpcUnreachable } from './real-grpc.js';
import {
  closedPort,
  fetchClosedPort,
  fetchHangup,
  fetchTimeout,
  fsMissingFile,
  httpRequestHangup,
  netConnectError,
} from './real-network.js';

const NODE = 'Node.js 20.20 (provoked for real on this machine)';
const SMITHY_NET =
  '@smithy/core 3.41.1 retry/service-error-classification/constants.js NODEJS_TIMEOUT_ERROR_CODES / NODEJS_NETWORK_ERROR_CODES';
const UNDICI = 'undici 7.30.2 lib/core/errors.js';
const GRPC = '@grpc/grpc-js 1.14.7 build/src/call.js callErrorFromStatus (real server on 127.0.0.1:0)';
const GRPC_GUIDE = 'gRPC status code guidance, https://grpc.github.io/grpc/core/md_doc_statuscodes.html';

const NO = { retryable: false, retry_after: null } as const;

// undici's .d.ts disagrees with its JS for these constructors; lib/core/errors.js is what runs.
const SocketError = undiciErrors.SocketError as unknown as new (
  message: string,
  socket: object | null,
) => Error;
const RequestRetryError = undiciErrors.RequestRetryError as unknown as new (
  message: string,
  statusCode: number,
  extra: { headers: Record<string, string>; data: { count: number } },
) => Error;

/** A Node system error with the fields libuv's exceptionWithHostPort sets (errno negative, syscall, address, port). */
function systemError(
  code: keyof typeof constants.errno,
  syscall: string,
  address: string,
  port: number,
): Error {
  return Object.assign(new Error(`${syscall} ${code} ${address}:${port}`), {
    errno: -constants.errno[code],
    code,
    syscall,
    address,
    port,
  });
}

/** Node system errors, fetch/undici, node:http, gRPC. */
export const networkRpcCases: ErrorCase[] = [
  {
    id: 'node-econnrefused-real',
    origin: `${NODE}: net.connect to a closed port on 127.0.0.1; ${SMITHY_NET}`,
    build: () => netConnectError('127.0.0.1'),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true, retry_after: null },
  },
  {
    id: 'node-econnrefused-localhost-aggregate-real',
    origin: `${NODE}: net.connect with autoSelectFamily and two addresses → AggregateError [ECONNREFUSED] with errors[]`,
    note: 'What "localhost" gives on dual-stack hosts (::1 then 127.0.0.1): an AggregateError whose own code is ECONNREFUSED.',
    build: () => netConnectError('localhost', true),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  },
  {
    id: 'fetch-failed-cause-econnrefused-real',
    origin: `${NODE}: global fetch to a closed port → TypeError("fetch failed", { cause: ECONNREFUSED })`,
    secrets: ['h6FetchQueryT0ken'],
    build: () => fetchClosedPort('/v1/items?access_token=h6FetchQueryT0ken'),
    expected: { class: 'transient', code: 'ECONNREFUSED', retryable: true, retry_after: null },
  },
  {
    id: 'fetch-failed-cause-socket-closed-real',
    origin: `${NODE}: fetch to a server that destroys the socket → TypeError("fetch failed", { cause: SocketError UND_ERR_SOCKET "other side closed" })`,
    build: () => fetchHangup(),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'fetch-abort-signal-timeout-real',
    origin: `${NODE}: fetch with AbortSignal.timeout(50) on a silent server → DOMException TimeoutError`,
    build: () => fetchTimeout(),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'node-http-socket-hang-up-real',
    origin: `${NODE}: http.request to a server that destroys the socket → Error "socket hang up" code ECONNRESET`,
    secrets: ['h6-bearer-SecretValue'],
    build: () => httpRequestHangup({ authorization: 'Bearer h6-bearer-SecretValue' }),
    expected: { class: 'transient', code: 'ECONNRESET', retryable: true, retry_after: null },
  },
  {
    id: 'node-enoent-fs-real',
    origin: `${NODE}: fs.readFile on a missing path (not a remote failure; nothing to match) → permanent with raw`,
    build: () => fsMissingFile(),
    expected: { class: 'permanent', code: 'ENOENT', ...NO },
  },
  {
    id: 'node-ehostunreach',
    origin: `Node.js lib/internal/errors.js exceptionWithHostPort shape; ${SMITHY_NET}`,
    build: () => systemError('EHOSTUNREACH', 'connect', '10.20.30.40', 443),
    expected: { class: 'transient', code: 'EHOSTUNREACH', retryable: true },
  },
  {
    id: 'node-etimedout',
    origin: `Node.js exceptionWithHostPort shape; ${SMITHY_NET}`,
    build: () => systemError('ETIMEDOUT', 'connect', '10.20.30.40', 5432),
    expected: { class: 'transient', code: 'ETIMEDOUT', retryable: true },
  },
  {
    id: 'node-epipe',
    origin: `Node.js lib/internal/errors.js UVException (write EPIPE); ${SMITHY_NET}`,
    build: () =>
      Object.assign(new Error('write EPIPE'), {
        errno: -constants.errno.EPIPE,
        code: 'EPIPE',
        syscall: 'write',
      }),
    expected: { class: 'transient', code: 'EPIPE', retryable: true },
  },
  {
    id: 'node-eai-again-dns',
    origin: `Node.js lib/dns.js DNSException (getaddrinfo EAI_AGAIN); ${SMITHY_NET}`,
    build: () =>
      Object.assign(new Error('getaddrinfo EAI_AGAIN api.stripe.com'), {
        errno: -3001,
        code: 'EAI_AGAIN',
        syscall: 'getaddrinfo',
        hostname: 'api.stripe.com',
      }),
    expected: { class: 'transient', code: 'EAI_AGAIN', retryable: true },
  },
  {
    id: 'node-enotfound-dns',
    origin: `Node.js lib/dns.js DNSException (getaddrinfo ENOTFOUND); ${SMITHY_NET} (the AWS SDK retries it)`,
    note: 'NXDOMAIN can be a typo (permanent) or a resolver blip; the AWS SDK classifies it retryable, so do we.',
    build: () =>
      Object.assign(new Error('getaddrinfo ENOTFOUND db.internal.example'), {
        errno: -3008,
        code: 'ENOTFOUND',
        syscall: 'getaddrinfo',
        hostname: 'db.internal.example',
      }),
    expected: { class: 'transient', code: 'ENOTFOUND', retryable: true },
  },
  {
    id: 'node-tls-cert-expired',
    origin: 'Node.js lib/_tls_wrap.js onConnectSecure (verifyError code CERT_HAS_EXPIRED)',
    note: 'A certificate problem does not heal on retry: permanent (fix configuration).',
    build: () => Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' }),
    expected: { class: 'permanent', code: 'CERT_HAS_EXPIRED', ...NO },
  },
  {
    id: 'undici-connect-timeout',
    origin: `${UNDICI} ConnectTimeoutError (UND_ERR_CONNECT_TIMEOUT)`,
    build: () =>
      new undiciErrors.ConnectTimeoutError(
        'Connect Timeout Error (attempted address: api.example.com:443, timeout: 10000ms)',
      ),
    expected: { class: 'transient', code: 'UND_ERR_CONNECT_TIMEOUT', retryable: true },
  },
  {
    id: 'undici-headers-timeout',
    origin: `${UNDICI} HeadersTimeoutError (UND_ERR_HEADERS_TIMEOUT)`,
    build: () => new undiciErrors.HeadersTimeoutError(),
    expected: { class: 'transient', code: 'UND_ERR_HEADERS_TIMEOUT', retryable: true },
  },
  {
    id: 'undici-body-timeout',
    origin: `${UNDICI} BodyTimeoutError (UND_ERR_BODY_TIMEOUT)`,
    build: () => new undiciErrors.BodyTimeoutError(),
    expected: { class: 'transient', code: 'UND_ERR_BODY_TIMEOUT', retryable: true },
  },
  {
    id: 'undici-socket-error',
    origin: `${UNDICI} SocketError (UND_ERR_SOCKET, "other side closed")`,
    build: () =>
      new SocketError('other side closed', {
        localAddress: '127.0.0.1',
        localPort: 50123,
        remoteAddress: '10.0.0.9',
        remotePort: 443,
        remoteFamily: 'IPv4',
        timeout: undefined,
        bytesWritten: 512,
        bytesRead: 0,
      }),
    expected: { class: 'transient', code: 'UND_ERR_SOCKET', retryable: true },
  },
  {
    id: 'undici-response-error-503-retry-after',
    origin: `${UNDICI} ResponseError (UND_ERR_RESPONSE) from the responseError interceptor: statusCode + headers + body`,
    build: () =>
      new undiciErrors.ResponseError('Response Error', 503, {
        headers: { 'retry-after': '7', 'content-type': 'application/json' },
        body: { error: 'maintenance' },
      }),
    expected: { class: 'transient', retryable: true, retry_after: 7 },
  },
  {
    id: 'undici-request-retry-error-429',
    origin: `${UNDICI} RequestRetryError (UND_ERR_REQ_RETRY) from RetryHandler: statusCode + headers`,
    build: () =>
      new RequestRetryError('Request failed', 429, {
        headers: { 'retry-after': '12' },
        data: { count: 3 },
      }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 12 },
  },
  {
    id: 'undici-invalid-argument',
    origin: `${UNDICI} InvalidArgumentError (UND_ERR_INVALID_ARG: a programming error in the call)`,
    note: 'The call itself is malformed: repair (validation); permanent is defensible.',
    build: () => new undiciErrors.InvalidArgumentError('invalid method'),
    expected: { class: 'validation', code: 'UND_ERR_INVALID_ARG', ...NO },
  },
  {
    id: 'grpc-unavailable-closed-port-real',
    origin: `@grpc/grpc-js 1.14.7 real client → closed port (14 UNAVAILABLE "No connection established"); ${GRPC_GUIDE}`,
    build: async () => grpcUnreachable(await closedPort()),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'grpc-deadline-exceeded-real',
    origin: `@grpc/grpc-js 1.14.7 real client, deadline in the past (4 DEADLINE_EXCEEDED); ${GRPC_GUIDE}`,
    build: () => grpcDeadline(),
    expected: { class: 'transient', retryable: true, retry_after: null },
  },
  {
    id: 'grpc-resource-exhausted',
    origin: `${GRPC}; ${GRPC_GUIDE} (RESOURCE_EXHAUSTED: quota/rate)`,
    build: () => grpcStatusError(8, 'Quota exceeded for quota metric Write requests'),
    expected: { class: 'rate_limit', retryable: true },
  },
  {
    id: 'grpc-resource-exhausted-retry-pushback',
    origin: `${GRPC}; gRFC A6 client retries, https://github.com/grpc/proposal/blob/master/A6-client-retries.md (grpc-retry-pushback-ms)`,
    note: 'The server names the wait in trailing metadata (milliseconds).',
    build: () => grpcStatusError(8, 'rate limited', { 'grpc-retry-pushback-ms': '2000' }),
    expected: { class: 'rate_limit', retryable: true, retry_after: 2 },
  },
  {
    id: 'grpc-unavailable-server',
    origin: `${GRPC}; ${GRPC_GUIDE} (UNAVAILABLE: retry with backoff)`,
    build: () => grpcStatusError(14, 'upstream connect error or disconnect/reset before headers'),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'grpc-aborted',
    origin: `${GRPC}; ${GRPC_GUIDE} (ABORTED: retry at a higher level)`,
    build: () => grpcStatusError(10, 'Transaction was aborted due to a conflict'),
    expected: { class: 'transient', retryable: true },
  },
  {
    id: 'grpc-unauthenticated',
    origin: `${GRPC}; ${GRPC_GUIDE}`,
    secrets: ['h6-grpc-Bearer-S3cret'],
    build: () =>
      grpcStatusError(16, 'Request had invalid authentication credentials.', undefined, {
        authorization: 'Bearer h6-grpc-Bearer-S3cret',
      }),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'grpc-permission-denied',
    origin: `${GRPC}; ${GRPC_GUIDE}`,
    build: () => grpcStatusError(7, 'The caller does not have permission'),
    expected: { class: 'authentication', ...NO },
  },
  {
    id: 'grpc-invalid-argument',
    origin: `${GRPC}; ${GRPC_GUIDE}`,
    build: () => grpcStatusError(3, 'Invalid resource field value in the request.'),
    expected: { class: 'validation', ...NO },
  },
  {
    id: 'grpc-out-of-range',
    origin: `${GRPC}; ${GRPC_GUIDE} (OUT_OF_RANGE ~ HTTP 400)`,
    build: () => grpcStatusError(11, 'page_token beyond end'),
    expected: { class: 'validation', ...NO },
  },
  {
    id: 'grpc-not-found',
    origin: `${GRPC}; ${GRPC_GUIDE}`,
    build: () =>
      grpcStatusError(5, 'Document "projects/p/databases/(default)/documents/orders/9" not found.'),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'grpc-already-exists',
    origin: `${GRPC}; ${GRPC_GUIDE} (ALREADY_EXISTS ~ HTTP 409)`,
    note: 'Like HTTP 409: repeating cannot succeed; permanent (validation is defensible, cf. 23505).',
    build: () => grpcStatusError(6, 'Document already exists'),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'grpc-failed-precondition',
    origin: `${GRPC}; ${GRPC_GUIDE} ("do not retry until the system state has been explicitly fixed")`,
    build: () => grpcStatusError(9, 'The table is not empty'),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'grpc-unimplemented',
    origin: `${GRPC}; ${GRPC_GUIDE}`,
    build: () => grpcStatusError(12, 'Method not found: h6corpus.Corpus/Fail'),
    expected: { class: 'permanent', ...NO },
  },
  {
    id: 'grpc-internal',
    origin: `${GRPC}; ${GRPC_GUIDE} (INTERNAL ~ HTTP 500)`,
    build: () => grpcStatusError(13, 'Received RST_STREAM with code 2 triggered by internal client error'),
    expected: { class: 'transient', retryable: true },
  },
];
