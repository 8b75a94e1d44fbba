import {
  buildEnvelope,
  createEnvelope,
  createEnvelopeKnowing,
  sharedMessage,
} from '../envelope/create-envelope.js';
import { boundedText } from '../envelope/to-raw.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import type { ClassifyContext, Envelope, JsonValue } from '../types.js';
import { classifyAmqpError } from './classify-amqp-error.js';
import { classifyAwsSdkError } from './classify-aws-sdk-error.js';
import { classifyCassandraError } from './classify-cassandra-error.js';
import { classifyClickhouseError } from './classify-clickhouse-error.js';
import { type ClassifyResponse, classifyEmbeddedHttp } from './classify-embedded-http.js';
import { classifyGrpcError } from './classify-grpc-error.js';
import { classifyKafkaError } from './classify-kafka-error.js';
import { classifyLibraryTimeout } from './classify-library-timeout.js';
import { classifyMongodbError } from './classify-mongodb-error.js';
import { classifyMqttError } from './classify-mqtt-error.js';
import { classifyMssqlAggregate, classifyMssqlError } from './classify-mssql-error.js';
import { classifyMysqlError } from './classify-mysql-error.js';
import { classifyNamedError } from './classify-named-error.js';
import { classifyNatsError } from './classify-nats-error.js';
import { classifyNodeSystemError } from './classify-node-system-error.js';
import { classifyOracleError } from './classify-oracle-error.js';
import { classifyPoolCheckout } from './classify-pool-checkout.js';
import {
  classifyPgClientMessage,
  classifyPostgresError,
  classifyPostgrestError,
} from './classify-postgres-error.js';
import { classifyPostgresjsError } from './classify-postgresjs-error.js';
import { classifyPrismaError } from './classify-prisma-error.js';
import { classifyRedisError } from './classify-redis-error.js';
import { classifySdkNoResponse } from './classify-sdk-no-response.js';
import { classifySmtpError } from './classify-smtp-error.js';
import { classifySqliteError } from './classify-sqlite-error.js';
import { classifyUndiciError, isFetchFailure } from './classify-undici-error.js';
import { classifyVendorCodeError } from './classify-vendor-code-error.js';
import { findEmbeddedHttp } from './find-embedded-http.js';
import { normalizeUnknown } from './normalize-unknown.js';
import { retryAfterFieldHeaders } from './retry-after-field.js';
import { errorName, isObjectLike, read, readCode, readHttpStatus, readString } from './safe-read.js';
import { sourceOfSystem } from './system-source.js';
import type { Verdict } from './verdict.js';

/** Wrappers (ORMs, connectors, fetch) keep the driver's error under one of these keys. */
const CAUSE_KEYS = [
  'cause',
  'originalError',
  'original',
  'parent',
  'driverError',
  'lastNodeError',
  'lastError', // Vercel AI SDK RetryError
  'innerError',
  'nativeError', // Objection's db-errors
] as const;

const MAX_CAUSE_DEPTH = 5;

const classifyResponse: ClassifyResponse = (res) =>
  classifyHttpResponse(res as Parameters<typeof classifyHttpResponse>[0]);

/** Typed families, most specific first; ctx.system only widens what a family accepts. */
function classifyTyped(err: unknown, ctx: ClassifyContext | undefined, name: string): Verdict | null {
  return (
    // Before the AWS SDK family, which reads every `TimeoutError` as a socket timeout.
    classifyPoolCheckout(err, name) ??
    classifyAwsSdkError(err) ??
    classifyPostgresError(err, ctx) ??
    classifyPostgresjsError(err, ctx) ??
    classifyMysqlError(err, ctx) ??
    classifySmtpError(err) ??
    classifyMssqlError(err, ctx) ??
    classifyMongodbError(err, ctx) ??
    classifyClickhouseError(err, ctx, name) ??
    classifyOracleError(err, ctx) ??
    classifyCassandraError(err, ctx, name) ??
    classifyRedisError(err, ctx, name) ??
    classifyGrpcError(err, ctx) ??
    classifyPrismaError(err, name) ??
    classifySqliteError(err) ??
    classifyKafkaError(err, name) ??
    classifyAmqpError(err, ctx) ??
    classifyNatsError(err, ctx) ??
    classifyMqttError(err, ctx, name) ??
    classifyPgClientMessage(err) ??
    classifyPostgrestError(err) ??
    classifyLibraryTimeout(err, name) ??
    classifySdkNoResponse(err, name)
  );
}

/**
 * A libuv/DNS error (string `code` plus `syscall`) that no SDK decorated: no typed family claims
 * those codes, so the allowlist answers at once instead of after every family has looked.
 */
function socketFastPath(err: unknown): Verdict | null {
  if (typeof read(err, 'syscall') !== 'string' || read(err, '$metadata') !== undefined) return null;
  if (read(err, 'response') !== undefined || read(err, 'isAxiosError') === true) return null;
  return classifyNodeSystemError(err);
}

/** Joins a wrapper's message with its cause's unless one already contains the other. */
function joinMessages(outer: string | undefined, inner: string | undefined): string | undefined {
  if (!inner) return outer;
  if (!outer || outer.includes(inner)) return outer || inner;
  return `${outer}: ${inner}`;
}

function fromCauses(err: unknown, ctx: ClassifyContext | undefined, seen: unknown[]): Verdict | null {
  for (const key of CAUSE_KEYS) {
    const cause = read(err, key);
    if (!isObjectLike(cause) || seen.includes(cause)) continue;
    const verdict = classifyValue(cause, ctx, seen);
    if (verdict !== null) {
      verdict.message = joinMessages(
        readString(err, 'message'),
        verdict.message ?? readString(cause, 'message'),
      );
      return verdict;
    }
  }
  return null;
}

/** AggregateError: SQL Server batches first, else the first member that classifies. */
function fromAggregate(err: unknown, ctx: ClassifyContext | undefined, seen: unknown[]): Verdict | null {
  const errors = read(err, 'errors');
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const mssql = classifyMssqlAggregate(errors);
  if (mssql !== null) return mssql;
  for (const item of errors.slice(0, 8)) {
    if (!isObjectLike(item) || seen.includes(item)) continue;
    const verdict = classifyValue(item, ctx, seen);
    if (verdict !== null) {
      verdict.message ??= readString(item, 'message');
      return verdict;
    }
  }
  return null;
}

/**
 * The precedence of the design: typed SDK/driver error → embedded HTTP status (with its headers)
 * → string code allowlist (Node, undici, vendor codes) → bare status; then what wrappers hold
 * (causes, AggregateError members), class names, a library's own retry flag; null, which the
 * caller turns into permanent with raw kept.
 */
function classifyValue(err: unknown, ctx: ClassifyContext | undefined, seen: unknown[]): Verdict | null {
  if (!isObjectLike(err) || seen.length > MAX_CAUSE_DEPTH) return null;
  seen.push(err);
  const fast = socketFastPath(err);
  if (fast !== null) return fast;
  const name = errorName(err) ?? '';
  const typed = classifyTyped(err, ctx, name);
  if (typed !== null) return typed;

  const embedded = findEmbeddedHttp(err, ctx, name);
  if (embedded !== null) {
    const verdict = classifyEmbeddedHttp(err, embedded, classifyResponse);
    if (verdict !== null) return verdict;
  }

  if (isFetchFailure(err)) {
    const inner = fromCauses(err, ctx, seen) ?? fromAggregate(read(err, 'cause'), ctx, seen);
    if (inner !== null) {
      inner.source = 'http';
      return inner;
    }
    return { class: 'transient', code: 'fetch_failed', source: 'http', raw: { name: 'TypeError' } };
  }

  const coded =
    classifyUndiciError(err) ?? classifyNodeSystemError(err) ?? classifyVendorCodeError(err, name);
  if (coded !== null) return coded;

  const aggregate = fromAggregate(err, ctx, seen);
  if (aggregate !== null) return aggregate;

  const status = readHttpStatus(err, 'status') ?? readHttpStatus(err, 'statusCode');
  if (status !== undefined) {
    const env = classifyResponse({ status, headers: retryAfterFieldHeaders(err) });
    if (env !== null) {
      const { class: cls, code, retryable, retry_after: retryAfter } = env;
      return { class: cls, code, source: 'http', retryable, retryAfter, raw: {}, http: env };
    }
  }
  return fromCauses(err, ctx, seen) ?? classifyNamedError(name) ?? fromRetryFlag(err, name);
}

/**
 * Last typed signal: a library's own `retryable` / `retriable` verdict (aws-sdk v2, KafkaJS-like
 * clients, many in-house SDKs). Only `true` says anything; `false` leaves the permanent default.
 */
function fromRetryFlag(err: unknown, name: string): Verdict | null {
  if (read(err, 'retryable') !== true && read(err, 'retriable') !== true) return null;
  const code = readCode(err) ?? readString(err, 'type') ?? (name || 'Error');
  return { class: 'transient', code, source: 'unknown', raw: { name, code } };
}

function sourceFor(verdict: Verdict, ctx: ClassifyContext | undefined): string {
  if (ctx?.source) return ctx.source;
  // ctx.system is a db.system.name (or a broker's messaging.system): a socket error met by a
  // database or broker client is that dependency's failure to the on-call reader.
  if (ctx?.system && (verdict.source === 'network' || verdict.source === 'unknown')) {
    return sourceOfSystem(ctx.system);
  }
  return verdict.source;
}

/**
 * Reuses the envelope classifyHttpResponse built (already redacted and bounded) rather than
 * building a second one: only source, code, message and the error's name change.
 */
function patchHttpEnvelope(
  env: Envelope,
  verdict: Verdict,
  err: unknown,
  ctx: ClassifyContext | undefined,
): Envelope {
  const text = verdict.message ?? readString(err, 'message');
  let raw: JsonValue = env.raw;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    raw = { name: boundedText(errorName(err) ?? 'Error', 128), ...raw };
  }
  return buildEnvelope(
    {
      class: verdict.class,
      source: sourceFor(verdict, ctx),
      code: verdict.code,
      message: text || env.message,
      retryable: verdict.retryable ?? env.retryable,
      retryAfter: verdict.retryAfter,
      correlationId: ctx?.correlationId,
    },
    raw,
    false,
    // Without a text of its own the error keeps the response's message, already redacted.
    text ? undefined : env.message,
  );
}

function toEnvelope(err: unknown, ctx: ClassifyContext | undefined, verdict: Verdict | null): Envelope {
  if (verdict === null) {
    // Nothing matched: permanent, with as much of the original as fits, for offline inspection.
    const unknown = normalizeUnknown(err);
    const code = readCode(err) ?? (isObjectLike(err) ? unknown.name : 'unknown');
    // raw already holds the message as redacted (the same string when nothing was replaced).
    const known = unknown.known ?? sharedMessage(unknown.message);
    return createEnvelopeKnowing(
      {
        class: 'permanent',
        source: ctx?.source || (ctx?.system ? sourceOfSystem(ctx.system) : 'unknown'),
        code,
        message: unknown.message,
        correlationId: ctx?.correlationId,
        raw: unknown.raw,
      },
      known,
    );
  }
  if (verdict.http !== undefined) return patchHttpEnvelope(verdict.http, verdict, err, ctx);
  return createEnvelope({
    class: verdict.class,
    source: sourceFor(verdict, ctx),
    code: verdict.code,
    message: verdict.message ?? readString(err, 'message') ?? verdict.code,
    retryable: verdict.retryable,
    retryAfter: verdict.retryAfter,
    correlationId: ctx?.correlationId,
    raw: verdict.raw,
  });
}

/**
 * The envelope of a thrown value some rule recognised; null where nothing did (classifyError would
 * answer `permanent` with the value kept in raw). For callers with a further reading of their own:
 * a tool's error, whose message may still state a status or a SQLSTATE (tool/classify-tool-error.ts).
 */
export function classifyKnownError(err: unknown, ctx?: ClassifyContext): Envelope | null {
  try {
    const verdict = classifyValue(err, ctx, []);
    return verdict === null ? null : toEnvelope(err, ctx, verdict);
  } catch {
    return null;
  }
}

/**
 * Classifies anything thrown or rejected into an Envelope. Pure and synchronous; never throws:
 * null, strings, Proxies, throwing getters and circular causes all come back as envelopes.
 */
export function classifyError(err: unknown, ctx?: ClassifyContext): Envelope {
  try {
    return toEnvelope(err, ctx, classifyValue(err, ctx, []));
  } catch {
    return lastResort(ctx);
  }
}

/** Reached only if a classifier has a bug: still a valid envelope, never a second failure. */
function lastResort(ctx: ClassifyContext | undefined): Envelope {
  return buildEnvelope(
    {
      class: 'permanent',
      source: readString(ctx, 'source') ?? '',
      code: 'unclassifiable',
      message: 'The thrown value could not be inspected',
      correlationId: readString(ctx, 'correlationId'),
    },
    null,
    true,
  );
}
