import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { classifyError } from '../error/classify-error.js';
import { retryAfterFrom } from '../http/headers.js';
import type { ClassifyContext, Envelope } from '../types.js';
import { takeSpanError } from './span-errors.js';

const STATUS_UNKNOWN = 2;

interface GrpcStatusView {
  name: string;
  code: number;
  details: string;
  message: string;
  metadata: unknown;
}

/**
 * The envelope of a gRPC span whose error a capture hook reached, else null (the span-attribute
 * fallback then applies). The message is the server's details text: the code is already `code`,
 * and grpc-js's "14 UNAVAILABLE: …" prefix would only repeat it.
 */
export function grpcEnvelopeOf(span: ReadableSpan, ctx: ClassifyContext): Envelope | null {
  const err = takeSpanError(span);
  if (err === undefined) return null;
  const view = statusView(err);
  const envelope = classifyError(view, ctx);
  if (envelope.retryable && envelope.retry_after === null) {
    // grpc-retry-pushback-ms (gRFC A6) is the classifier's; servers behind HTTP-minded proxies
    // send the HTTP header's name in the trailers instead.
    const after = retryAfterFrom((name) => trailer(view.metadata, name));
    if (after !== null) envelope.retry_after = after;
  }
  return envelope;
}

/**
 * The status the other side sees, the way grpc-js derives it: a ServiceError already holds it
 * (callErrorFromStatus, src/call.ts); a handler's error without an integer code goes out as
 * UNKNOWN with its message as details (serverErrorToStatus, src/server-call.ts).
 */
function statusView(err: unknown): GrpcStatusView {
  const e = (err ?? {}) as Record<string, unknown>;
  const valid = typeof e.code === 'number' && Number.isInteger(e.code) && e.code >= 0 && e.code <= 16;
  const message = typeof e.message === 'string' ? e.message : '';
  const details = valid && typeof e.details === 'string' ? e.details : message || 'Unknown Error';
  return {
    name: typeof e.name === 'string' ? e.name : 'Error',
    code: valid ? (e.code as number) : STATUS_UNKNOWN,
    details,
    message: details || message,
    metadata: e.metadata,
  };
}

/** grpc-js Metadata#get returns an array of values; only the first string one counts. */
function trailer(metadata: unknown, name: string): string | undefined {
  const get = (metadata as { get?: unknown } | null | undefined)?.get;
  if (typeof get !== 'function') return undefined;
  try {
    const values = get.call(metadata, name) as unknown;
    const first = Array.isArray(values) ? values[0] : values;
    return typeof first === 'string' ? first : undefined;
  } catch {
    return undefined;
  }
}
