import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import { type Sampler, SamplingDecision, type SamplingResult } from '@opentelemetry/sdk-trace-base';

/**
 * The ratio sampler with one change for the keep-every-failure option: a span it would not record
 * is recorded (RECORD) rather than dropped, so the span processors see how it ends. Its flags stay
 * unsampled and its tracestate is the ratio sampler's, so what travels downstream (traceparent,
 * tracestate) and every sampling decision below are exactly what they were; only
 * keep-failures-processor.ts decides which of these spans leave the process. The price is that
 * every span is recorded (attributes, the envelope) though most are dropped at export: how a span
 * ends is only known once it has.
 */
export class RecordUnsampled implements Sampler {
  constructor(private readonly ratio: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const result = this.ratio.shouldSample(context, traceId, name, kind, attributes, links);
    if (result.decision !== SamplingDecision.NOT_RECORD) return result;
    return { ...result, decision: SamplingDecision.RECORD };
  }

  toString(): string {
    return `RecordUnsampled{${this.ratio.toString()}}`;
  }
}
