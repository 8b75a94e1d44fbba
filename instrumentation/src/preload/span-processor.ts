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
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MISROUTED_RETRY,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from '../attributes.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import { currentAttempt } from '../policy/attempt-context.js';
import type { Envelope } from '../types.js';
import { correlationIdOf } from './correlation.js';
import { envelopeFromSpan } from './fallback-envelope.js';
import { operationKey } from './misrouted-retry.js';
import type { PreloadState } from './preload-state.js';
import type { ResponseRecord } from './response-registry.js';
import { setEnvelope } from './span-envelope.js';
import { dbSystemOf, httpStatusOf, sourceOf } from './span-source.js';

/**
 * Stamps every span with the correlation id (successes too: the dashboard needs denominators),
 * client spans with their source, attempt and misrouted-retry mark; and, in `onEnding` while the
 * span is still writable, classifies whatever the hooks could not reach from the span itself.
 */
export class FaultlineSpanProcessor implements SpanProcessor {
  /**
   * Client spans started under another client span: the HTTP calls of an AWS SDK operation, a
   * driver's reconnect. Their repeats are the library's own retry loop, never misrouted retries.
   */
  private readonly nested = new WeakSet<object>();

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
      const attempt = currentAttempt();
      if (attempt !== undefined && attempt > 1) {
        span.setAttribute(ATTR_ATTEMPT, attempt);
        if (source === 'http') span.setAttribute('http.request.resend_count', attempt - 1);
      }
      if (parent?.kind === SpanKind.CLIENT) {
        this.nested.add(span);
        return;
      }
      if (this.state.misrouted.size === 0) return;
      const key = operationKey(attrs);
      const earlier = key ? this.state.misrouted.lookup(correlationId, key) : undefined;
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
      if (kind !== SpanKind.CLIENT && kind !== SpanKind.SERVER) return;
      const attrs = sdkSpan.attributes;
      if (attrs[ATTR_CLASS] === undefined) {
        const envelope = this.classify(span, sdkSpan, attrs);
        if (envelope) setEnvelope(span, envelope);
      }
      if (kind !== SpanKind.CLIENT) return;
      // Some instrumentations only set their identifying attributes after the span started.
      if (attrs[ATTR_SOURCE] === undefined) {
        const source = sourceOf(attrs);
        if (source) span.setAttribute(ATTR_SOURCE, source);
      }
      this.rememberOutcome(sdkSpan, attrs);
    } catch (err) {
      diag.warn('faultline: onEnding failed', err);
    }
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

  /**
   * Remembers a non-retryable failure so an identical repeat can be marked; any other outcome
   * (success, retryable or unclassified failure) clears it, since a retry after it is legitimate.
   */
  private rememberOutcome(span: ReadableSpan, attrs: Attributes): void {
    const failedForGood =
      attrs[ATTR_RETRYABLE] === false && !CALLER_STOPPED.has(String(attrs[ATTR_CODE] ?? ''));
    if (this.nested.has(span) || (!failedForGood && this.state.misrouted.size === 0)) return;
    const key = operationKey(attrs);
    if (!key) return;
    const correlationId = String(attrs[ATTR_CORRELATION_ID] ?? '');
    if (failedForGood) this.state.misrouted.record(correlationId, key, envelopeOf(span));
    else this.state.misrouted.forget(correlationId, key);
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

/**
 * Envelope codes of calls the caller itself stopped (an AbortSignal, a gRPC `call.cancel()`, a
 * cancelled SQL Server request): not retryable, yet calling again is the caller's new decision,
 * not a retry the envelope advised against.
 */
const CALLER_STOPPED = new Set(['ABORT_ERR', 'CANCELLED', 'ECANCEL', 'ECANCELLED']);

/** The envelope as written on the span, read back so a refused repeat can answer with it. */
function envelopeOf(span: ReadableSpan): Envelope {
  const a = span.attributes;
  const retryAfter = a['faultline.retry_after'];
  let raw: Envelope['raw'] = null;
  try {
    raw = JSON.parse(String(a['faultline.raw'] ?? 'null'));
  } catch {
    raw = null;
  }
  return {
    class: a[ATTR_CLASS] as Envelope['class'],
    source: String(a[ATTR_SOURCE] ?? ''),
    code: String(a['faultline.code'] ?? ''),
    message: String(a['faultline.message'] ?? ''),
    retryable: a[ATTR_RETRYABLE] === true,
    retry_after: typeof retryAfter === 'number' ? retryAfter : null,
    correlation_id: String(a[ATTR_CORRELATION_ID] ?? ''),
    raw,
  };
}
