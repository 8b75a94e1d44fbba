import { createTraceState, type SpanContext, TraceFlags, type TraceState } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_SAMPLING_KEPT,
  SAMPLING_KEPT_FAILURE,
  type SAMPLING_KEPT_PATH,
} from '../../envelope/attribute-names.js';

export type KeptMark = typeof SAMPLING_KEPT_FAILURE | typeof SAMPLING_KEPT_PATH;

/**
 * What the batch processor exports for a span kept by the keep-every-failure option: the ended
 * span as it is, but for
 * - its span context: SAMPLED set (the SDK's BatchSpanProcessor queues only sampled spans; the
 *   OTLP span flags then say sampled too, the weight being carried by `th` and the mark) and, for a
 *   failure, `th:0` in its tracestate (weight 1: failures are exported whatever the sampler said,
 *   so each stands for itself);
 * - one attribute more, `faultline.sampling.kept` (the mark the collector's weight reads).
 * The span itself is left untouched (it has ended; other processors may hold it). Built only for
 * kept spans, which are few; every other span goes to the batch processor as the SDK made it.
 * Fields are copied, not proxied: the OTLP transformer reads exactly these (sdkSpanToOtlpSpan,
 * spanRecordsToResourceSpans groups by the `resource` object, which stays the same one).
 */
export function keptView(span: ReadableSpan, context: SpanContext, mark: KeptMark): ReadableSpan {
  const exported: SpanContext = {
    ...context,
    traceFlags: context.traceFlags | TraceFlags.SAMPLED,
    traceState: mark === SAMPLING_KEPT_FAILURE ? withWeightOne(context.traceState) : context.traceState,
  };
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => exported,
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: { ...span.attributes, [ATTR_SAMPLING_KEPT]: mark },
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * The tracestate with `th:0` as the threshold of its `ot` member: any other sub-key (`rv:…`,
 * unknown ones) and every other vendor's member kept. TraceState.set moves `ot` to the front, as
 * the W3C format asks of a member a participant rewrites.
 */
export function withWeightOne(traceState: TraceState | undefined): TraceState {
  const ot = traceState?.get('ot');
  const rest = ot ? ot.split(';').filter((part) => part !== '' && !part.startsWith('th:')) : [];
  return (traceState ?? createTraceState()).set('ot', ['th:0', ...rest].join(';'));
}
