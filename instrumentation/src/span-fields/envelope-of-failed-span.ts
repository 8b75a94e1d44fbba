import { isToolCall } from '../envelope/agent-fields.js';
import { dbSystemOf } from '../envelope/db-system.js';
import { failingHttpStatusOf, httpStatusOf } from '../envelope/http-status-of.js';
import { sourceOf } from '../envelope/span-source.js';
import { classifyError } from '../error/classify-error.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import { asToolFailure } from '../tool/tool-source.js';
import type { Envelope } from '../types.js';
import { AWS_CODE_IN_TEXT } from './driver-texts.js';
import { errorLikeOf, spanErrorOf } from './error-like-of.js';
import { grpcStatusOf, headerValue } from './semconv-reads.js';
import type { FailedSpanFields } from './span-error.js';
import { systemOfError } from './system-of-error.js';

/**
 * The envelope of a failed span whose error object is gone, from what its instrumentation left:
 * the same pure classifiers, fed the status, the driver's code and the exception event in the
 * shapes they read. One reading for both ends: the collector's for spans that arrive without an
 * envelope (any SDK), the preload's for a span no hook reached, so they agree wherever the span
 * carries the evidence. Call only for spans that show a failure.
 */
export function envelopeOfFailedSpan(span: FailedSpanFields, correlationId: string): Envelope {
  const attrs = span.attrs;
  const err = spanErrorOf(span);
  // dbSystemOf and sourceOf read a broker's messaging.system too (db-system.ts, span-source.ts).
  // A span that names no system (a handler's) may still hold a driver's error that says whose it is.
  const system = dbSystemOf(attrs) ?? systemOfError(err);
  const ctx = { source: sourceOf(attrs), system, correlationId };
  const status = httpStatusOf(attrs);

  // An AWS SDK span: the service's error code names the failure better than the HTTP status
  // (a ThrottlingException comes with a 400).
  const aws = AWS_CODE_IN_TEXT.exec(err.message);
  if (aws !== null) {
    const code = (aws[1] ?? aws[2])!;
    return classifyError(
      {
        name: code,
        message: err.message,
        $fault: status !== undefined && status >= 500 ? 'server' : 'client',
        $metadata: { httpStatusCode: status },
      },
      { ...ctx, source: ctx.source ?? 'sdk' },
    );
  }
  // A failing status, client or server alike: the preload's rule (failingHttpStatusOf).
  const failing = failingHttpStatusOf(attrs);
  if (failing !== undefined) {
    const retryAfter = headerValue(attrs, 'http.response.header.retry-after');
    const headers = retryAfter === undefined ? undefined : { 'retry-after': retryAfter };
    return classifyHttpResponse(
      { status: failing, headers },
      { ...ctx, source: ctx.source ?? 'http' },
    ) as Envelope;
  }
  const grpc = grpcStatusOf(attrs);
  if (grpc !== undefined && grpc !== 0) {
    // grpc-js errors carry the numeric status as `code` and the server's text as `details`; the
    // message of grpc-js and grpc-java alike is "<code> <STATUS>: <details>" / "STATUS: details".
    const details = err.message.replace(/^(\d+ )?[A-Z_]+: /, '');
    return classifyError(
      { name: err.type ?? 'Error', code: grpc, details, message: err.message, metadata: {} },
      ctx,
    );
  }
  const envelope = classifyError(errorLikeOf(err, system, attrs['db.response.status_code']), ctx);
  // An agent's tool call that failed saying nothing of what beneath it failed: the tool's own.
  return isToolCall(attrs) ? asToolFailure(envelope) : envelope;
}
