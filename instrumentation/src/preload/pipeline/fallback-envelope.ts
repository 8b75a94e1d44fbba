import { type Attributes, SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { dbSystemOf } from '../../envelope/db-system.js';
import { classifyError } from '../../error/classify-error.js';
import { httpStatusEnvelope } from '../../http/http-status-envelope.js';
import type { Envelope } from '../../types.js';
import { grpcEnvelopeOf } from '../clients/grpc/grpc-envelope.js';
import { takeDriverError } from '../clients/mysql2/driver-errors.js';
import { takeSpanError } from './span-errors.js';

const SPAN_STATUS_ERROR = 2;

/**
 * Rebuilds an envelope from what an instrumentation left on the span when no hook reached the
 * error object: the HTTP status, `error.type`, the exception event and the status message. The
 * driver's own error comes first when a hook filed it (pg-errors.ts, tedious-errors.ts,
 * ioredis-errors.ts, the gRPC captures); else pg's "PostgreSQL error … (code: 42P01)" SQLSTATE and
 * the server number instrumentation-tedious leaves in `db.response.status_code` are the last resort.
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
  return classifyError(errorLikeFrom(span, attrs), classifyCtx);
}

/** Filed against the span (pg, tedious, ioredis), or parked by mysql2's channel for this hand-off. */
function driverErrorOf(span: ReadableSpan, system: string | undefined): unknown {
  const filed = takeSpanError(span);
  if (filed !== undefined) return filed;
  return system === 'mysql' || system === 'mariadb' ? takeDriverError() : undefined;
}

function errorLikeFrom(span: ReadableSpan, attrs: Attributes): Record<string, unknown> {
  const exception = span.events.find((e) => e.name === 'exception')?.attributes ?? {};
  // instrumentation-grpc records a unary client call's error as attributes, not as an event.
  const message = String(
    exception['exception.message'] ??
      attrs['grpc.error_message'] ??
      span.status.message ??
      'operation failed',
  );
  const errorType = attrs['error.type'];
  const code =
    (typeof errorType === 'string' && errorType !== '_OTHER' ? errorType : undefined) ??
    /\(code: ([0-9A-Z]{5})\)/.exec(message)?.[1];
  const err: Record<string, unknown> = { name: String(exception['exception.type'] ?? 'Error'), message };
  if (code !== undefined) err.code = String(code);
  // instrumentation-tedious: the server's error number, else tedious's own code (ECLOSE…); its
  // `error.type` is only the constructor name ('RequestError'), which classifies nothing.
  const dbStatus = attrs['db.response.status_code'];
  if (typeof dbStatus === 'string' && dbSystemOf(attrs) === 'microsoft.sql_server') {
    if (/^-?\d+$/.test(dbStatus)) {
      err.number = Number(dbStatus);
      delete err.code;
    } else err.code = dbStatus;
  }
  const grpcStatus = attrs['rpc.grpc.status_code'];
  if (grpcStatus !== undefined) {
    // grpc-js errors carry the numeric status as `code` and the server text as `details`.
    err.code = Number(grpcStatus);
    // grpc-js builds the message as "<code> <STATUS>: <details>"; details is the server's own text.
    err.details = message.replace(/^\d+ [A-Z_]+: /, '');
    err.metadata = {};
  }
  return err;
}
