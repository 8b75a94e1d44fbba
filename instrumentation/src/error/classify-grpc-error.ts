import { defaultRetryable } from '../envelope/error-classes.js';
import { retryAfterFrom } from '../http/headers.js';
import type { ClassifyContext, ErrorClass } from '../types.js';
import { read, readNumber, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * @grpc/grpc-js (and google-gax, which extends it): callErrorFromStatus() assigns the status
 * object onto an Error, so the error has a numeric `code` (0–16), `details` and `metadata`
 * (a Metadata instance). Code rule: the status name ("UNAVAILABLE").
 */

const STATUS: readonly [string, ErrorClass][] = [
  ['OK', 'permanent'],
  ['CANCELLED', 'permanent'], // cancelled by the caller
  ['UNKNOWN', 'transient'], // grpc-gateway maps it to 500; handlers that threw land here
  ['INVALID_ARGUMENT', 'validation'],
  ['DEADLINE_EXCEEDED', 'transient'],
  ['NOT_FOUND', 'permanent'],
  ['ALREADY_EXISTS', 'permanent'], // 409: re-observe and replan
  ['PERMISSION_DENIED', 'authentication'],
  ['RESOURCE_EXHAUSTED', 'rate_limit'], // quota or rate; oversized messages are refined below
  ['FAILED_PRECONDITION', 'permanent'], // the system is not in the required state
  ['ABORTED', 'transient'], // concurrency conflict: retry the read-modify-write
  ['OUT_OF_RANGE', 'validation'],
  ['UNIMPLEMENTED', 'permanent'],
  ['INTERNAL', 'transient'],
  ['UNAVAILABLE', 'transient'],
  ['DATA_LOSS', 'permanent'],
  ['UNAUTHENTICATED', 'authentication'],
];

/** grpc-js answers an oversized message with RESOURCE_EXHAUSTED; waiting will not shrink it. */
function isMessageSizeLimit(details: string): boolean {
  return (
    details.startsWith('Received message larger than max') ||
    details.startsWith('Sent message larger than max')
  );
}

/**
 * The server's wait, in seconds: its pushback (gRPC retry design A6), else the HTTP header names
 * (`retry-after-ms`, `retry-after`) that servers behind HTTP-minded proxies send as trailers.
 */
function pushbackSeconds(metadata: unknown): number | null {
  const pushback = trailer(metadata, 'grpc-retry-pushback-ms');
  const ms = pushback === undefined ? Number.NaN : Number(pushback);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  return retryAfterFrom((name) => trailer(metadata, name));
}

/** grpc-js Metadata#get returns an array; Connect's Headers#get a string. Only a string counts. */
function trailer(metadata: unknown, name: string): string | undefined {
  const get = read(metadata, 'get');
  if (typeof get !== 'function') return undefined;
  try {
    const values = get.call(metadata, name) as unknown;
    const first = Array.isArray(values) ? values[0] : values;
    return typeof first === 'string' ? first : undefined;
  } catch {
    return undefined;
  }
}

export function isGrpcError(err: unknown, ctx: ClassifyContext | undefined): boolean {
  const code = readNumber(err, 'code');
  if (code === undefined || !Number.isInteger(code) || code < 0 || code > 16) return false;
  if (ctx?.source === 'rpc') return true;
  return readString(err, 'details') !== undefined || read(err, 'metadata') !== undefined;
}

export function classifyGrpcError(err: unknown, ctx: ClassifyContext | undefined): Verdict | null {
  if (!isGrpcError(err, ctx)) return null;
  const num = readNumber(err, 'code') as number;
  const [name, baseClass] = STATUS[num] as [string, ErrorClass];
  const details = readString(err, 'details') ?? '';
  const cls = num === 8 && isMessageSizeLimit(details) ? 'validation' : baseClass;
  const raw: Record<string, unknown> = { code: num, status: name };
  if (details !== '') raw.details = details;
  const reason = readString(err, 'reason'); // google-gax ErrorInfo
  if (reason !== undefined) raw.reason = reason;
  const verdict: Verdict = { class: cls, code: name, source: 'rpc', raw };
  // grpc-js prefixes the server's text with "<code> <STATUS>: "; `code` already says the status.
  if (details !== '') verdict.message = details;
  if (defaultRetryable(cls)) {
    const after = pushbackSeconds(read(err, 'metadata'));
    if (after !== null) verdict.retryAfter = after;
  }
  return verdict;
}
