import { performance } from 'node:perf_hooks';
import type { Attributes, Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ATTEMPT,
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MESSAGE,
  ATTR_MISROUTED_RETRY,
  ATTR_PREVIOUS_CLASS,
  ATTR_PREVIOUS_CODE,
  ATTR_PREVIOUS_MESSAGE,
  ATTR_RAW,
  ATTR_RETRY_AFTER,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from '../../envelope/attribute-names.js';
import { sourceOf } from '../../envelope/span-source.js';
import { type AttemptInfo, currentAttemptInfo } from '../../policy/attempt-context.js';
import type { Envelope } from '../../types.js';
import { scopedKey } from './agent-context.js';
import type { AttemptTracker, FailedAttempt } from './attempt-tracker.js';
import { correlationIdOfSpan } from './correlation.js';
import { misroutes, operationKey } from './misrouted-retry.js';
import { startedAtOf } from './span-marks.js';

type PreviousEnvelope = Pick<Envelope, 'class' | 'code' | 'message'>;

/**
 * Numbers the attempts of logical client calls. An identical repeat (same operation key, same
 * correlation id) of a call that failed is its next attempt, after that failure (faultline.previous_*);
 * after a success the count starts again, so a hand-written loop and withRetry give the same
 * numbers. A call counts as a repeat only if it began after the failure ended: concurrent identical
 * calls are twins, not retries. Misrouted repeats are marked at start when the failure is already
 * on record (the moment enforce mode needs it); the attempt is settled at the end, when pg has set
 * its statement and a held end (a fetch body waiting to be read) has recorded the earlier outcome.
 */
export class RepeatAttempts {
  /**
   * The failure on record when a call began: that call repeats it (or a later one that ended before
   * the call began, once recorded). Kept because the timestamps of a failure that ended a few
   * microseconds before the repeat began cannot always tell the two apart.
   */
  private readonly repeatOf = new WeakMap<object, FailedAttempt>();
  /**
   * withRetry's attempt (when > 1) of calls started inside it: the number of last resort for calls
   * without an operation key. Read at start, the only moment the async context is the caller's.
   */
  private readonly retryContexts = new WeakMap<object, AttemptInfo>();

  constructor(
    private readonly tracker: AttemptTracker,
    /** Misrouted repeats found at start, with the earlier envelope, for the enforce-mode hooks. */
    private readonly repeats: WeakMap<Span, Envelope>,
  ) {}

  started(span: Span, name: string, attrs: Attributes, correlationId: string): void {
    const info = currentAttemptInfo();
    if (info !== undefined && info.attempt > 1) this.retryContexts.set(span, info);
    if (this.tracker.size === 0 || !this.tracker.has(correlationId)) return;
    const key = scopedKey(operationKey(attrs, name), span);
    const earlier = key ? this.tracker.latest(correlationId, key) : undefined;
    if (earlier === undefined) return;
    this.repeatOf.set(span, earlier);
    if (misroutes(earlier.envelope)) {
      span.setAttribute(ATTR_MISROUTED_RETRY, true);
      this.repeats.set(span, earlier.envelope);
    }
  }

  ended(span: Span, sdkSpan: ReadableSpan, attrs: Attributes): void {
    const failed = attrs[ATTR_CLASS] !== undefined;
    const tracker = this.tracker;
    // A success with no earlier failure of its request on record is attempt 1 and forgets nothing.
    if (
      !failed &&
      !this.retryContexts.has(span) &&
      (tracker.size === 0 || !tracker.has(correlationIdOfSpan(span)))
    ) {
      return;
    }
    const key = scopedKey(operationKey(attrs, sdkSpan.name), span);
    if (key === undefined) {
      const info = this.retryContexts.get(span);
      if (info !== undefined) stampAttempt(span, attrs, info.attempt, info.previous);
      return;
    }
    const correlationId = correlationIdOfSpan(span);
    // performance.now() at the call's start (span-marks.ts): the SDK's own start time is
    // Date.now(), whole milliseconds, too coarse to tell whether a call began before or after an
    // identical one ended.
    const startedAt = startedAtOf(span) ?? performance.now();
    const onRecordAtStart = this.repeatOf.get(span);
    const current = tracker.size > 0 ? tracker.previous(correlationId, key, startedAt) : undefined;
    // A later failure that ended before this call began is the one it repeats, even if it was
    // recorded only after this call started (its end held for a body).
    const earlier =
      current !== undefined && (onRecordAtStart === undefined || current.endedAt >= onRecordAtStart.endedAt)
        ? current
        : onRecordAtStart;
    const attempt = earlier ? earlier.attempt + 1 : 1;
    if (earlier) {
      stampAttempt(span, attrs, attempt, earlier.envelope);
      if (misroutes(earlier.envelope)) span.setAttribute(ATTR_MISROUTED_RETRY, true);
    }
    if (failed) {
      // raw is only needed to answer a refused repeat (enforce mode), i.e. after a misrouting failure.
      const envelope = envelopeOf(sdkSpan, attrs[ATTR_RETRYABLE] !== true);
      // Start plus duration: both SDK times carry the same offset, so their difference is exact.
      tracker.failed(correlationId, key, attempt, envelope, startedAt + durationMs(sdkSpan));
    } else tracker.succeeded(correlationId, key);
  }
}

/** The failed attempt just before this one, as faultline.previous_*. */
export function stampPrevious(span: Span, previous: PreviousEnvelope): void {
  span.setAttribute(ATTR_PREVIOUS_CLASS, previous.class);
  span.setAttribute(ATTR_PREVIOUS_CODE, previous.code);
  span.setAttribute(ATTR_PREVIOUS_MESSAGE, previous.message);
}

/** attempt > 1 with the failure before it; HTTP spans also say it the semconv way. */
function stampAttempt(
  span: Span,
  attrs: Attributes,
  attempt: number,
  previous: PreviousEnvelope | undefined,
): void {
  span.setAttribute(ATTR_ATTEMPT, attempt);
  // A library's own earlier attempt inside this span (library-attempts.ts) is the one just before.
  if (previous && attrs[ATTR_PREVIOUS_CLASS] === undefined) stampPrevious(span, previous);
  if (
    (attrs[ATTR_SOURCE] ?? sourceOf(attrs)) === 'http' &&
    attrs['http.request.resend_count'] === undefined
  ) {
    span.setAttribute('http.request.resend_count', attempt - 1);
  }
}

function durationMs(span: ReadableSpan): number {
  return (span.endTime[0] - span.startTime[0]) * 1e3 + (span.endTime[1] - span.startTime[1]) / 1e6;
}

/** The envelope as written on the span, read back for the next attempt (and a refused repeat). */
function envelopeOf(span: ReadableSpan, withRaw: boolean): Envelope {
  const a = span.attributes;
  const retryAfter = a[ATTR_RETRY_AFTER];
  let raw: Envelope['raw'] = null;
  if (withRaw) {
    try {
      raw = JSON.parse(String(a[ATTR_RAW] ?? 'null'));
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
    correlation_id: String(a[ATTR_CORRELATION_ID] ?? span.spanContext().traceId),
    raw,
  };
}
