import { type Context, type Span, SpanKind } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ATTEMPT,
  ATTR_CLASS,
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
import { safely } from './safe.js';
import { setEnvelope } from './span-envelope.js';
import { dbSystemOf, sourceOf } from './span-source.js';

/**
 * Stamps every span with the correlation id (successes too: the dashboard needs denominators),
 * client spans with their source, attempt and misrouted-retry mark; and, in `onEnding` while the
 * span is still writable, classifies whatever the hooks could not reach from the span itself.
 */
export class FaultlineSpanProcessor implements SpanProcessor {
  constructor(private readonly state: PreloadState) {}

  onStart(span: Span, parentContext: Context): void {
    safely('onStart', () => {
      const sdkSpan = span as unknown as ReadableSpan;
      const correlationId = correlationIdOf(parentContext) ?? span.spanContext().traceId;
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
      const key = this.state.misrouted.size > 0 ? operationKey(attrs) : undefined;
      const earlier = key ? this.state.misrouted.lookup(correlationId, key) : undefined;
      if (earlier) {
        span.setAttribute(ATTR_MISROUTED_RETRY, true);
        this.state.repeats.set(span, earlier);
      }
    });
  }

  onEnding(span: Span): void {
    safely('onEnding', () => {
      const sdkSpan = span as unknown as ReadableSpan;
      if (sdkSpan.kind !== SpanKind.CLIENT && sdkSpan.kind !== SpanKind.SERVER) return;
      const attrs = sdkSpan.attributes;
      const correlationId = String(attrs[ATTR_CORRELATION_ID] ?? '');
      const source = (attrs[ATTR_SOURCE] as string | undefined) ?? sourceOf(attrs);
      if (attrs[ATTR_CLASS] === undefined) {
        const envelope =
          this.fromResponse(span, source, correlationId) ??
          envelopeFromSpan(sdkSpan, { source, correlationId });
        if (envelope) setEnvelope(span, envelope);
      }
      if (sdkSpan.kind === SpanKind.CLIENT && sdkSpan.attributes[ATTR_RETRYABLE] === false) {
        const key = operationKey(attrs);
        if (key) this.state.misrouted.record(correlationId, key, envelopeOf(sdkSpan));
      }
      if (source && attrs[ATTR_SOURCE] === undefined && sdkSpan.kind === SpanKind.CLIENT) {
        span.setAttribute(ATTR_SOURCE, source);
      }
    });
  }

  /** Client responses recorded by the HTTP/undici hooks, with headers and any peeked body. */
  private fromResponse(span: Span, source: string | undefined, correlationId: string): Envelope | null {
    const record = this.state.responses.take(span);
    if (!record) return null;
    const body = record.body?.();
    if (record.status < 400 && body === undefined) return null;
    const system = dbSystemOf((span as unknown as ReadableSpan).attributes);
    return classifyHttpResponse(
      { status: record.status, headers: record.headers, body },
      { source: source ?? 'http', correlationId, system },
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
