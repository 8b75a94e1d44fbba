import { type Context, diag, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_CLASS,
  ATTR_PREVIOUS_CLASS,
  SAMPLING_KEPT_FAILURE,
  SAMPLING_KEPT_PATH,
} from '../../envelope/attribute-names.js';
import { PendingAncestors } from './keep-failures-ancestors.js';
import { keptView } from './keep-failures-view.js';

/**
 * The keep-every-failure option's export decision, in front of the batch processor (installed only
 * when the option is on: at ratio 1 no span passes through it). With RecordUnsampled
 * (keep-failures-sampler.ts) every span is recorded; when one ends:
 *
 * - a failure is kept regardless, in sampled and unsampled traces alike, marked
 *   `faultline.sampling.kept=failure` with `th:0` (weight 1), so failures are counted exactly while
 *   successes keep their 1/p weight (an unbiased count either way);
 * - in an unsampled trace, the local ancestors of such a failure (parent, grandparent… up to the
 *   local root; they normally end after it) are kept too, marked `path` (weight 0: they explain the
 *   failure and stand for no traffic), unless they failed themselves;
 * - any other sampled span goes through as the SDK made it, any other unsampled one is dropped.
 *
 * Runs in onEnd, after every processor's onEnding: FaultlineSpanProcessor has set the envelope
 * (`faultline.class`, `faultline.previous_class` of failed earlier attempts, the ERROR status of a
 * lean server failure) by then, so the decision reads the span's final word.
 */
export class KeepFailuresProcessor implements SpanProcessor {
  constructor(
    private readonly next: SpanProcessor,
    private readonly ancestors = new PendingAncestors(),
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    let exported: ReadableSpan | undefined = span;
    try {
      exported = this.decide(span);
    } catch (err) {
      diag.warn('faultline: keep-failures decision failed', err);
    }
    if (exported) this.next.onEnd(exported);
  }

  /** The span or view the batch processor gets, or undefined to drop it. */
  private decide(span: ReadableSpan): ReadableSpan | undefined {
    const context = span.spanContext();
    const failed = keptRegardless(span);
    if ((context.traceFlags & TraceFlags.SAMPLED) !== 0) {
      return failed ? keptView(span, context, SAMPLING_KEPT_FAILURE) : span;
    }
    // Taken whether or not it failed itself, so a failed ancestor leaves no entry behind.
    const onPath = this.ancestors.size > 0 && this.ancestors.take(context.spanId);
    if (!failed && !onPath) return undefined;
    // Up to the local root only: a remote parent's spans belong to the process that made them.
    const parent = span.parentSpanContext;
    if (parent !== undefined && !parent.isRemote) this.ancestors.note(parent.spanId);
    return keptView(span, context, failed ? SAMPLING_KEPT_FAILURE : SAMPLING_KEPT_PATH);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/**
 * A span exported whatever the sampler said: it carries an envelope class, a failed earlier
 * attempt (`faultline.previous_class`, which a retry that finally succeeded keeps), or the ERROR
 * status. A superset of SQL's faultline_failed (sql/schema/005_functions.sql): every span the
 * store counts as failed is exact, and so are the retries behind a success.
 */
export function keptRegardless(span: ReadableSpan): boolean {
  const attrs = span.attributes;
  return (
    span.status.code === SpanStatusCode.ERROR ||
    (attrs[ATTR_CLASS] !== undefined && attrs[ATTR_CLASS] !== '') ||
    (attrs[ATTR_PREVIOUS_CLASS] !== undefined && attrs[ATTR_PREVIOUS_CLASS] !== '')
  );
}
