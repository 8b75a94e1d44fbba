import diagnosticsChannel from 'node:diagnostics_channel';
import { SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fileSpanError } from '../../pipeline/span-errors.js';

/** Fastify 5 publishes each route handler on this tracing channel (lib/handle-request.js). */
const CHANNEL = 'fastify.request.handler';

const noop = (): void => {};

/**
 * A Fastify handler's error never reaches a span: auto-instrumentations-node has no Fastify
 * instrumentation, and Fastify turns the error into a reply itself (its status and headers when the
 * error carries them, else a 500). Fastify publishes the error on its handler channel while the
 * request's server span is the active one: filed against it, the server span is classified by the
 * error (a TypeError is a bug, an http-errors 503 an outage with its Retry-After), not by the 500.
 * When a Fastify OpenTelemetry plugin adds a handler span, that span is the active one and holds it.
 */
export function subscribeFastifyErrors(): () => void {
  const onError = (message: unknown): void => {
    try {
      const error = (message as { error?: unknown }).error;
      const span = trace.getActiveSpan();
      if (error == null || span === undefined) return;
      // Only a span of this request: a client call's span is never the active one once it ended.
      const kind = (span as unknown as Partial<ReadableSpan>).kind;
      if (kind === SpanKind.SERVER || kind === SpanKind.INTERNAL) fileSpanError(span, error);
    } catch {
      // Never into the host's request path.
    }
  };
  const handlers = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: onError };
  const channel = diagnosticsChannel.tracingChannel(CHANNEL);
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
