import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { dbSystemOf } from '../../envelope/db-system.js';
import { classifyError } from '../../error/classify-error.js';
import { httpStatusEnvelope } from '../../http/http-status-envelope.js';
import { envelopeOfFailedSpan } from '../../span-fields/envelope-of-failed-span.js';
import type { FailedSpanFields } from '../../span-fields/span-error.js';
import type { Envelope } from '../../types.js';
import { grpcEnvelopeOf } from '../clients/grpc/grpc-envelope.js';
import { takeDriverError } from '../clients/mysql2/driver-errors.js';
import { takeSpanError } from './span-errors.js';

const SPAN_STATUS_ERROR = 2;

/**
 * Rebuilds an envelope from what an instrumentation left on the span when no hook reached the
 * error object: the HTTP status, `error.type`, the exception event and the status message. The
 * driver's own error comes first when a hook filed it (pg-errors.ts, tedious-errors.ts,
 * ioredis-errors.ts, the gRPC captures, every recordException); else the span's own fields, read
 * as the collector reads a stock span's (span-fields/), so the two agree.
 */
export function envelopeFromSpan(
  span: ReadableSpan,
  ctx: { source: string | undefined; correlationId: string },
): Envelope | null {
  const attrs = span.attributes;
  const classifyCtx = { source: ctx.source, correlationId: ctx.correlationId, system: dbSystemOf(attrs) };
  // What a server, handler, producer or consumer span failed with says more than the status it
  // answered: an http-errors 503 carries its Retry-After, a TypeError is a bug whatever the 500.
  // gRPC keeps its own order below: the status the server answered is the contract there.
  if (span.kind !== SpanKind.CLIENT && attrs['rpc.system'] === undefined) {
    const filed = takeSpanError(span);
    if (filed !== undefined) return classifyError(filed, classifyCtx);
  }
  const byStatus = httpStatusEnvelope(attrs, ctx.correlationId, ctx.source);
  if (byStatus !== null) return byStatus;
  if (span.status.code !== SPAN_STATUS_ERROR) return null;
  const grpc = attrs['rpc.system'] === 'grpc' ? grpcEnvelopeOf(span, classifyCtx) : null;
  if (grpc !== null) return grpc;
  const system = classifyCtx.system;
  const driverError = driverErrorOf(span, system);
  if (driverError !== undefined) return classifyError(driverError, classifyCtx);
  // No error object reached: the span's own fields, read as the collector reads a stock span's.
  return envelopeOfFailedSpan(fieldsOf(span), ctx.correlationId);
}

/** Filed against the span (pg, tedious, ioredis), or parked by mysql2's channel for this hand-off. */
function driverErrorOf(span: ReadableSpan, system: string | undefined): unknown {
  const filed = takeSpanError(span);
  if (filed !== undefined) return filed;
  return system === 'mysql' || system === 'mariadb' ? takeDriverError() : undefined;
}

/**
 * The span as the collector would store it (attributes stringified: numbers in decimal, arrays as
 * JSON), for the reading both ends share. Only failures no hook reached get here.
 */
function fieldsOf(span: ReadableSpan): FailedSpanFields {
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (value === undefined || value === null) continue;
    attrs[key] =
      typeof value === 'string' ? value : Array.isArray(value) ? JSON.stringify(value) : String(value);
  }
  const exception = span.events.find((e) => e.name === 'exception')?.attributes;
  const type = exception?.['exception.type'];
  const message = exception?.['exception.message'];
  return {
    attrs,
    exceptionType: type === undefined ? undefined : String(type),
    exceptionMessage: message === undefined ? undefined : String(message),
    statusMessage: span.status.message || undefined,
  };
}
