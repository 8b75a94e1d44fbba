import { performance } from 'node:perf_hooks';
import {
  type Attributes,
  type Context,
  diag,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { isToolCall } from '../../envelope/agent-fields.js';
import {
  ATTR_CALL_ROLE,
  ATTR_CALLER_SPAN_ID,
  ATTR_CLASS,
  ATTR_CORRELATION_ID,
  ATTR_ENTRY,
  ATTR_PREVIOUS_CLASS,
  ATTR_PROPAGATED,
  ATTR_SOURCE,
} from '../../envelope/attribute-names.js';
import { dbSystemOf } from '../../envelope/db-system.js';
import { failingHttpStatusOf, httpStatusOf } from '../../envelope/http-status-of.js';
import { sourceOf } from '../../envelope/span-source.js';
import { classifyHttpResponse } from '../../http/classify-http-response.js';
import type { Envelope } from '../../types.js';
import { markAgentContext, writeAgentContext } from './agent-context.js';
import type { CallCounter } from './call-counter.js';
import {
  isConnectSpan,
  isTransport,
  markTransport,
  settleTransport,
  takeHeldEnvelope,
  takeTransportTally,
} from './call-role.js';
import { correlationIdOf, correlationIdOfSpan } from './correlation.js';
import { envelopeFromSpan } from './fallback-envelope.js';
import { foldTransports } from './library-attempts.js';
import type { PreloadState } from './preload-state.js';
import { RepeatAttempts } from './repeat-attempts.js';
import type { ResponseRecord } from './response-registry.js';
import { recordServerAnswer } from './server-answer.js';
import { markFailed, setEnvelope } from './span-envelope.js';
import { fileRecordedExceptions, hasSpanError } from './span-errors.js';
import { callerOf, isEntry, markStart } from './span-marks.js';
import { toolCallEnvelope } from './tool-call-envelope.js';

/**
 * Gives every span its correlation id (successes too: the dashboard needs denominators), on the
 * wire only where the collector cannot derive it (derived-attributes.ts); tells transport requests and checkouts from logical calls at
 * start; and, in `onEnding` while the span is still writable, classifies whatever the hooks could
 * not reach, numbers identical repeats, folds transport requests into their operation and marks
 * failures that echo a local one below them.
 */
export class FaultlineSpanProcessor implements SpanProcessor {
  private readonly attempts: RepeatAttempts;

  /** Export what the collector would derive too (FAULTLINE_EXPORT_DERIVED), for other backends. */
  private readonly exportDerived: boolean;

  constructor(
    private readonly state: PreloadState,
    /** Exact counts of every call (sdk/count-meter.ts); none under an application's own SDK. */
    private readonly counter?: CallCounter,
  ) {
    this.attempts = new RepeatAttempts(state.attempts, state.repeats);
    this.exportDerived = state.config.exportDerived;
  }

  // try/catch rather than safely(): onStart runs for every span, and a closure each costs.
  onStart(span: Span, parentContext: Context): void {
    try {
      fileRecordedExceptions(span);
      const sdkSpan = span as unknown as ReadableSpan;
      // The SDK's own performance clock reading at the span's start, which its end time and
      // duration are measured against: a reading of ours, taken later, put a failure's computed
      // end (start + duration) microseconds past its real end, after a repeat that began in
      // between. performance.now() only where the SDK keeps no such field.
      const sdkStart = (span as unknown as { _performanceStartTime?: unknown })._performanceStartTime;
      const startedAt =
        sdkSpan.kind !== SpanKind.CLIENT ? 0 : typeof sdkStart === 'number' ? sdkStart : performance.now();
      const parent = trace.getSpan(parentContext) as unknown as Partial<ReadableSpan> | undefined;
      // A local parent already resolved the id: its attribute, or, when it has none, its trace id
      // (which is this span's). Only a span with no local parent reads baggage.
      const parentAttrs = parent?.attributes;
      const traceId = span.spanContext().traceId;
      const correlationId =
        parentAttrs !== undefined
          ? ((parentAttrs[ATTR_CORRELATION_ID] as string | undefined) ?? traceId)
          : (correlationIdOf(parentContext) ?? traceId);
      // The trace id is what the collector derives when the attribute is absent: it need not travel.
      if (correlationId !== traceId || this.exportDerived)
        span.setAttribute(ATTR_CORRELATION_ID, correlationId);
      // The entry: a request this process received from outside (its root server span has no
      // parent) and its local descendants; this service is the request's entry, its calls the
      // workflow's steps.
      const entry = parent === undefined ? sdkSpan.kind === SpanKind.SERVER : isEntry(parent);
      // The call this request came from: a local parent knows it; a span whose parent is remote
      // (a server span under the caller's traceparent) starts the request here, under that call.
      const remote = sdkSpan.parentSpanContext;
      const caller =
        parentAttrs !== undefined ? callerOf(parent as object) : remote?.isRemote ? remote.spanId : '';
      markStart(span, entry, startedAt, caller);
      markAgentContext(span, parent, sdkSpan.attributes);
      if (sdkSpan.kind !== SpanKind.INTERNAL) {
        // A root server span is the entry by what it is (derived-attributes.ts); a span whose
        // context held an invalid parent is a root too, yet not one this process received.
        const root = sdkSpan.kind === SpanKind.SERVER && sdkSpan.parentSpanContext === undefined;
        if (entry && (!root || this.exportDerived)) span.setAttribute(ATTR_ENTRY, true);
        else if (!entry && root) span.setAttribute(ATTR_ENTRY, false);
      }
      if (sdkSpan.kind !== SpanKind.CLIENT) {
        // A socket connect or a lookup inside a client call (instrumentation-net, -dns): a step of
        // that call, whose span holds the failure; never a failure of its own.
        if (parent?.kind === SpanKind.CLIENT) markTransport(span, parent);
        return;
      }
      const attrs = sdkSpan.attributes;
      // The HTTP requests of an AWS SDK operation, a driver's round trips: part of their parent
      // call, whose own retry loop repeats them (never misrouted). A connect under a pool checkout
      // is a step of its own.
      if (parent?.kind === SpanKind.CLIENT && !isConnectSpan(parent.name, parent.attributes)) {
        markTransport(span, parent);
        return;
      }
      this.attempts.started(span, sdkSpan.name, attrs, correlationId);
    } catch (err) {
      diag.warn('faultline: onStart failed', err);
    }
  }

  onEnding(span: Span): void {
    try {
      const sdkSpan = span as unknown as ReadableSpan;
      const kind = sdkSpan.kind;
      const attrs = sdkSpan.attributes;
      let failedLean = false;
      // An agent's tool call fails by what it threw or returned (an MCP isError, { ok: false }),
      // whatever its status says: classified first, so the branches below find its envelope.
      const toolCall = isToolCall(attrs);
      if (toolCall && attrs[ATTR_CLASS] === undefined) {
        const envelope = toolCallEnvelope(span, sdkSpan);
        if (envelope) setEnvelope(span, envelope);
      }
      if (kind === SpanKind.CLIENT || kind === SpanKind.SERVER) {
        // A client span's source follows from its semconv attributes, which the collector reads
        // too; an envelope writes its own.
        if (kind === SpanKind.CLIENT && this.exportDerived && attrs[ATTR_SOURCE] === undefined) {
          const source = sourceOf(attrs);
          if (source) span.setAttribute(ATTR_SOURCE, source);
        }
        if (kind === SpanKind.CLIENT && isTransport(span)) {
          span.setAttribute(ATTR_CALL_ROLE, 'transport');
          settleTransport(span, takeHeldEnvelope(span) ?? this.classify(span, sdkSpan, attrs));
          return;
        }
        if (attrs[ATTR_CLASS] === undefined) {
          if (kind === SpanKind.SERVER) recordServerAnswer(span, this.state.responses);
          if (this.failedByStatus(span, kind, attrs)) {
            // Its envelope follows from the status code alone: the collector builds it.
            markFailed(span);
            failedLean = true;
          } else {
            const envelope = this.classify(span, sdkSpan, attrs);
            if (envelope) setEnvelope(span, envelope);
          }
        }
        if (kind === SpanKind.CLIENT) this.endCall(span, sdkSpan, attrs);
      } else if (
        sdkSpan.status.code === SpanStatusCode.ERROR &&
        attrs[ATTR_CLASS] === undefined &&
        !isTransport(span)
      ) {
        // A producer's publish, a consumer's processing, a framework's handler span (express,
        // koa, nest…): classified from the error the instrumentation recorded, so a handler's
        // TypeError is a bug and an http-errors 503 an outage, and the server's status its echo.
        const envelope = this.classify(span, sdkSpan, attrs);
        if (envelope) setEnvelope(span, envelope);
      }
      if (toolCall || attrs[ATTR_CLASS] !== undefined) writeAgentContext(span, attrs);
      // A failure row below a server span names the call it served (first_hand_failures: the
      // caller's call is its echo even when the server span between them did not fail).
      if (
        kind !== SpanKind.SERVER &&
        (attrs[ATTR_CLASS] !== undefined || attrs[ATTR_PREVIOUS_CLASS] !== undefined)
      ) {
        const caller = callerOf(span);
        if (caller !== '') span.setAttribute(ATTR_CALLER_SPAN_ID, caller);
      }
      this.propagate(span, sdkSpan, kind, failedLean || attrs[ATTR_CLASS] !== undefined);
      // A root server span ends its request here. Under a trace-id correlation no other request
      // shares the id, so the request's failed calls are forgotten now rather than held for the
      // tracker's TTL (an x-correlation-id may come back on a retried request: those are kept).
      if (
        kind === SpanKind.SERVER &&
        sdkSpan.parentSpanContext === undefined &&
        this.state.attempts.size > 0
      ) {
        const traceId = span.spanContext().traceId;
        if (correlationIdOfSpan(span) === traceId) this.state.attempts.forgetRequest(traceId);
      }
    } catch (err) {
      diag.warn('faultline: onEnding failed', err);
    }
  }

  private endCall(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): void {
    const tally = takeTransportTally(span);
    if (tally !== undefined) foldTransports(span, attrs, tally);
    if (attrs[ATTR_CLASS] === undefined && isConnectSpan(sdkSpan.name, attrs)) {
      span.setAttribute(ATTR_CALL_ROLE, 'checkout');
    }
    this.attempts.ended(span, sdkSpan, attrs);
  }

  /**
   * A failed span that finds a local failure below it is its echo (faultline.propagated); a failure,
   * or a span that did not fail but is only a pass-through (INTERNAL), carries the mark up to a
   * local parent. Transport requests never get here: they are part of their operation.
   */
  private propagate(span: Span, sdkSpan: ReadableSpan, kind: SpanKind, failed: boolean): void {
    const failures = this.state.failures;
    if (!failed && failures.size === 0) return;
    const below = failures.size > 0 && failures.take(span.spanContext().spanId);
    if (failed && below) span.setAttribute(ATTR_PROPAGATED, true);
    if (!failed && !(below && kind === SpanKind.INTERNAL)) return;
    const parent = sdkSpan.parentSpanContext;
    if (parent !== undefined && !parent.isRemote) failures.note(parent.spanId);
  }

  /**
   * A server span that answered 4xx/5xx with nothing more to say: its envelope is the status
   * code's (http-status-envelope.ts), which the collector derives under the lean export.
   */
  private failedByStatus(span: Span, kind: SpanKind, attrs: Attributes): boolean {
    return (
      kind === SpanKind.SERVER &&
      !this.exportDerived &&
      failingHttpStatusOf(attrs) !== undefined &&
      // The error the handler failed with (fastify's channel, node:http's own catch), or the
      // Retry-After the service answered with: more than the status says, so a full envelope.
      !hasSpanError(span) &&
      !this.state.responses.has(span)
    );
  }

  /** Only spans that can have failed get past the first checks; successes cost a few reads. */
  private classify(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): Envelope | null {
    const record = this.state.responses.take(span);
    if (record === undefined && sdkSpan.status.code !== SpanStatusCode.ERROR) {
      const status = httpStatusOf(attrs);
      if (status === undefined || status < 400) return null;
    }
    const correlationId = correlationIdOfSpan(span);
    const source = (attrs[ATTR_SOURCE] as string | undefined) ?? sourceOf(attrs);
    if (record !== undefined) {
      const envelope = this.fromResponse(record, attrs, source, correlationId);
      if (envelope !== null) return envelope;
      // A success whose body said nothing failed: nothing else on the span can.
      if (record.status < 400 && sdkSpan.status.code !== SpanStatusCode.ERROR) return null;
    }
    return envelopeFromSpan(sdkSpan, { source, correlationId });
  }

  /** Client responses recorded by the HTTP/undici hooks, with headers and any peeked body. */
  private fromResponse(
    record: ResponseRecord,
    attrs: Attributes,
    source: string | undefined,
    correlationId: string,
  ): Envelope | null {
    const body = record.body?.();
    if (record.status < 400 && body === undefined) return null;
    return classifyHttpResponse(
      { status: record.status, headers: record.headers, body },
      { source: source ?? 'http', correlationId, system: dbSystemOf(attrs) },
    );
  }

  // Every recording span, sampled or not, with its attributes final: the exact counts.
  onEnd(span: ReadableSpan): void {
    this.counter?.count(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
