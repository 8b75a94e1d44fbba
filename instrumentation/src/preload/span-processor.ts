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
import {
  ATTR_ATTEMPT,
  ATTR_ATTEMPTS,
  ATTR_CALL_ROLE,
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MESSAGE,
  ATTR_MISROUTED_RETRY,
  ATTR_PREVIOUS_CLASS,
  ATTR_PREVIOUS_CODE,
  ATTR_PREVIOUS_MESSAGE,
  ATTR_PROPAGATED,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from '../attributes.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import { type AttemptInfo, currentAttemptInfo } from '../policy/attempt-context.js';
import type { Envelope } from '../types.js';
import {
  isConnectSpan,
  isGenericCode,
  isTransport,
  markTransport,
  settleTransport,
  type TransportTally,
  takeHeldEnvelope,
  takeTransportTally,
} from './call-role.js';
import { correlationIdOf } from './correlation.js';
import { envelopeFromSpan } from './fallback-envelope.js';
import { misroutes, operationKey } from './misrouted-retry.js';
import type { PreloadState } from './preload-state.js';
import type { ResponseRecord } from './response-registry.js';
import { setEnvelope } from './span-envelope.js';
import { dbSystemOf, httpStatusOf, sourceOf } from './span-source.js';

type PreviousEnvelope = Pick<Envelope, 'class' | 'code' | 'message'>;

/**
 * Stamps every span with the correlation id (successes too: the dashboard needs denominators) and
 * client spans with their source; tells transport requests and checkouts from logical calls at
 * start; and, in `onEnding` while the span is still writable, classifies whatever the hooks could
 * not reach, numbers identical repeats, folds transport requests into their operation and marks
 * failures that echo a local one below them.
 */
export class FaultlineSpanProcessor implements SpanProcessor {
  /**
   * withRetry's attempt (when > 1) of client spans started inside it: the number of last resort for
   * calls without an operation key. Read at start, the only moment the attempt's async context is
   * certainly the caller's.
   */
  private readonly retryContexts = new WeakMap<object, AttemptInfo>();
  /**
   * performance.now() at the start of each logical client span. The SDK's own start time is
   * Date.now(), whole milliseconds with a per-span offset: too coarse to tell whether a call began
   * before or after an identical one ended, which is what makes it a repeat rather than a twin.
   */
  private readonly starts = new WeakMap<object, number>();

  constructor(private readonly state: PreloadState) {}

  // try/catch rather than safely(): onStart runs for every span, and a closure each costs.
  onStart(span: Span, parentContext: Context): void {
    try {
      const sdkSpan = span as unknown as ReadableSpan;
      const parent = trace.getSpan(parentContext) as unknown as Partial<ReadableSpan> | undefined;
      // A local parent already resolved the id: reuse it instead of reading baggage again.
      const inherited = parent?.attributes?.[ATTR_CORRELATION_ID];
      const correlationId =
        typeof inherited === 'string'
          ? inherited
          : (correlationIdOf(parentContext) ?? span.spanContext().traceId);
      span.setAttribute(ATTR_CORRELATION_ID, correlationId);
      if (sdkSpan.kind !== SpanKind.CLIENT) return;
      const attrs = sdkSpan.attributes;
      const source = sourceOf(attrs);
      if (source) span.setAttribute(ATTR_SOURCE, source);
      // The HTTP requests of an AWS SDK operation, a driver's round trips: part of their parent
      // call, whose own retry loop repeats them (never misrouted). A connect under a pool checkout
      // is a step of its own.
      if (parent?.kind === SpanKind.CLIENT && !isConnectSpan(parent.name, parent.attributes)) {
        markTransport(span, parent);
        return;
      }
      this.starts.set(span, performance.now());
      const info = currentAttemptInfo();
      if (info !== undefined && info.attempt > 1) this.retryContexts.set(span, info);
      if (this.state.attempts.size === 0) return;
      const key = operationKey(attrs, sdkSpan.name);
      const earlier = key ? this.state.attempts.lookup(correlationId, key) : undefined;
      if (earlier) {
        span.setAttribute(ATTR_MISROUTED_RETRY, true);
        this.state.repeats.set(span, earlier);
      }
    } catch (err) {
      diag.warn('faultline: onStart failed', err);
    }
  }

  onEnding(span: Span): void {
    try {
      const sdkSpan = span as unknown as ReadableSpan;
      const kind = sdkSpan.kind;
      const attrs = sdkSpan.attributes;
      if (kind === SpanKind.CLIENT || kind === SpanKind.SERVER) {
        if (kind === SpanKind.CLIENT && isTransport(span)) {
          span.setAttribute(ATTR_CALL_ROLE, 'transport');
          settleTransport(span, takeHeldEnvelope(span) ?? this.classify(span, sdkSpan, attrs));
          return;
        }
        if (attrs[ATTR_CLASS] === undefined) {
          const envelope = this.classify(span, sdkSpan, attrs);
          if (envelope) setEnvelope(span, envelope);
        }
        if (kind === SpanKind.CLIENT) this.endCall(span, sdkSpan, attrs);
      }
      this.propagate(span, sdkSpan, kind, attrs);
    } catch (err) {
      diag.warn('faultline: onEnding failed', err);
    }
  }

  private endCall(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): void {
    // Some instrumentations only set their identifying attributes after the span started.
    if (attrs[ATTR_SOURCE] === undefined) {
      const source = sourceOf(attrs);
      if (source) span.setAttribute(ATTR_SOURCE, source);
    }
    const tally = takeTransportTally(span);
    if (tally !== undefined) this.foldTransports(span, attrs, tally);
    if (attrs[ATTR_CLASS] === undefined && isConnectSpan(sdkSpan.name, attrs)) {
      span.setAttribute(ATTR_CALL_ROLE, 'checkout');
    }
    this.numberAttempt(span, sdkSpan, attrs);
  }

  /**
   * An identical repeat (same operation key, same correlation id) of a call that failed is its next
   * attempt; after a success the count starts again. The decision waits for the span's end, when
   * every attribute of the key is set (pg sets its statement after start) and the earlier call's
   * outcome is known even if its end was held (a peeked fetch body); a call counts as a repeat only
   * if it started after the failure ended, so concurrent identical calls are not each other's retries.
   */
  private numberAttempt(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): void {
    const failed = attrs[ATTR_CLASS] !== undefined;
    const tracker = this.state.attempts;
    if (!failed && tracker.size === 0 && !this.retryContexts.has(span)) return;
    const key = operationKey(attrs, sdkSpan.name);
    if (key === undefined) {
      const info = this.retryContexts.get(span);
      if (info !== undefined) stampAttempt(span, attrs, info.attempt, info.previous);
      return;
    }
    const correlationId = String(attrs[ATTR_CORRELATION_ID] ?? '');
    const startedAt = this.starts.get(span) ?? performance.now();
    const earlier = tracker.size > 0 ? tracker.previous(correlationId, key, startedAt) : undefined;
    const attempt = earlier ? earlier.attempt + 1 : 1;
    if (earlier) {
      stampAttempt(span, attrs, attempt, earlier.envelope);
      if (misroutes(earlier.envelope)) span.setAttribute(ATTR_MISROUTED_RETRY, true);
    }
    if (failed) {
      const retryable = attrs[ATTR_RETRYABLE] === true;
      // raw is only needed to answer a refused repeat (enforce mode), i.e. after a misrouting failure.
      const envelope = envelopeOf(sdkSpan, !retryable);
      // Start plus duration: both SDK times carry the same offset, so their difference is exact.
      tracker.failed(correlationId, key, attempt, envelope, startedAt + durationMs(sdkSpan));
    } else tracker.succeeded(correlationId, key);
  }

  /**
   * An operation span whose library retried internally: the attempt count ($metadata.attempts from
   * the AWS hooks, else its transport requests counted), the failed attempt before the last one,
   * and, when its own envelope is missing or only generic, the final transport's classification.
   */
  private foldTransports(span: Span, attrs: Attributes, tally: TransportTally): void {
    const reported = attrs[ATTR_ATTEMPTS];
    const attempts = typeof reported === 'number' && reported > 1 ? reported : tally.count;
    if (attempts > 1) {
      if (reported === undefined) span.setAttribute(ATTR_ATTEMPTS, attempts);
      const previous = tally.lastFailed ? tally.prior : tally.last;
      if (previous) stampPrevious(span, previous);
    }
    const final = tally.lastFailed ? tally.last : undefined;
    if (final === undefined) return;
    const own = attrs[ATTR_CODE];
    if (attrs[ATTR_CLASS] !== undefined && !(isGenericCode(String(own ?? '')) && !isGenericCode(final.code)))
      return;
    setEnvelope(span, {
      ...final,
      source: String(attrs[ATTR_SOURCE] ?? final.source),
      correlation_id: String(attrs[ATTR_CORRELATION_ID] ?? final.correlation_id),
    });
  }

  /**
   * A failed span that finds a local failure below it is its echo (faultline.propagated); a failure,
   * or a span that did not fail but is only a pass-through (INTERNAL), carries the mark up to a
   * local parent. Transport requests never get here: they are part of their operation.
   */
  private propagate(span: Span, sdkSpan: ReadableSpan, kind: SpanKind, attrs: Attributes): void {
    const failures = this.state.failures;
    const failed = attrs[ATTR_CLASS] !== undefined;
    if (!failed && failures.size === 0) return;
    const below = failures.size > 0 && failures.take(span.spanContext().spanId);
    if (failed && below) span.setAttribute(ATTR_PROPAGATED, true);
    if (!failed && !(below && kind === SpanKind.INTERNAL)) return;
    const parent = sdkSpan.parentSpanContext;
    if (parent !== undefined && !parent.isRemote) failures.note(parent.spanId);
  }

  /** Only spans that can have failed get past the first checks; successes cost a few reads. */
  private classify(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): Envelope | null {
    const record = this.state.responses.take(span);
    if (record === undefined && sdkSpan.status.code !== SpanStatusCode.ERROR) {
      const status = httpStatusOf(attrs);
      if (status === undefined || status < 400) return null;
    }
    const correlationId = String(attrs[ATTR_CORRELATION_ID] ?? '');
    const source = (attrs[ATTR_SOURCE] as string | undefined) ?? sourceOf(attrs);
    return (
      (record ? this.fromResponse(record, attrs, source, correlationId) : null) ??
      envelopeFromSpan(sdkSpan, { source, correlationId })
    );
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

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** attempt > 1 with the failure before it; HTTP spans also say it the semconv way. */
function stampAttempt(
  span: Span,
  attrs: Attributes,
  attempt: number,
  previous: PreviousEnvelope | undefined,
): void {
  span.setAttribute(ATTR_ATTEMPT, attempt);
  // A library's own earlier attempt inside this span (foldTransports) is the one just before.
  if (previous && attrs[ATTR_PREVIOUS_CLASS] === undefined) stampPrevious(span, previous);
  if (attrs[ATTR_SOURCE] === 'http' && attrs['http.request.resend_count'] === undefined) {
    span.setAttribute('http.request.resend_count', attempt - 1);
  }
}

function stampPrevious(span: Span, previous: PreviousEnvelope): void {
  span.setAttribute(ATTR_PREVIOUS_CLASS, previous.class);
  span.setAttribute(ATTR_PREVIOUS_CODE, previous.code);
  span.setAttribute(ATTR_PREVIOUS_MESSAGE, previous.message);
}

function durationMs(span: ReadableSpan): number {
  return (span.endTime[0] - span.startTime[0]) * 1e3 + (span.endTime[1] - span.startTime[1]) / 1e6;
}

/** The envelope as written on the span, read back for the next attempt (and a refused repeat). */
function envelopeOf(span: ReadableSpan, withRaw: boolean): Envelope {
  const a = span.attributes;
  const retryAfter = a['faultline.retry_after'];
  let raw: Envelope['raw'] = null;
  if (withRaw) {
    try {
      raw = JSON.parse(String(a['faultline.raw'] ?? 'null'));
    } catch {
      raw = null;
    }
  }
  return {
    class: a[ATTR_CLASS] as Envelope['class'],
    source: String(a[ATTR_SOURCE] ?? ''),
    code: String(a[ATTR_CODE] ?? ''),
    message: String(a[ATTR_MESSAGE] ?? ''),
    retryable: a[ATTR_RETRYABLE] === true,
    retry_after: typeof retryAfter === 'number' ? retryAfter : null,
    correlation_id: String(a[ATTR_CORRELATION_ID] ?? ''),
    raw,
  };
}
