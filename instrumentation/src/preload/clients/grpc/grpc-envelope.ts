import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { classifyError } from '../../../error/classify-error.js';
import type { ClassifyContext, Envelope } from '../../../types.js';
import { takeSpanError } from '../../pipeline/span-errors.js';

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
 * fallback then applies).
 */
export function grpcEnvelopeOf(span: ReadableSpan, ctx: ClassifyContext): Envelope | null {
  const err = takeSpanError(span);
  if (err === undefined) return null;
  // The classifier reads the wait from the trailers (pushback, retry-after) and takes details as
  // the message.
  return classifyError(statusView(err), ctx);
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
    message,
    metadata: e.metadata,
  };
}
