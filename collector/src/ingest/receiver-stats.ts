import { samplingWeightOf } from '@faultline/instrumentation/envelope';

/** Counters the receiver keeps itself (the writer keeps its own; /metrics shows both). */
export class ReceiverStats {
  /** Responses to /v1/traces by HTTP status. */
  readonly responses = new Map<number, number>();
  /** Spans refused one by one inside an accepted request (partial_success). */
  spansInvalid = 0;
  /** Spans in requests answered 429/503 because the writer was saturated or stopping. */
  spansRefusedSaturated = 0;
  /** Attribute values cut to the length limit. */
  valuesTruncated = 0;
  /**
   * Accepted spans by the sampling mark their tracestate carries (`ot=th`): a valid one gives the
   * span its weight; a malformed one is stored with weight 1 and counted here, never refused.
   */
  samplingMarked = 0;
  samplingMarkInvalid = 0;
  /** Bodies decoded, and the bytes they held after decompression. */
  bodiesDecoded = 0;
  bytesDecoded = 0;

  /** When a request or a span was last refused (epoch ms), or null. */
  lastRefusedAt: number | null = null;

  countResponse(status: number): void {
    this.responses.set(status, (this.responses.get(status) ?? 0) + 1);
    if (status >= 400) this.lastRefusedAt = Date.now();
  }

  /** The sampling marks of a decoded batch's spans (samplingWeightOf, the twin of the SQL rule). */
  countSamplingMarks(rows: readonly { TraceState: string }[]): void {
    for (const { TraceState: traceState } of rows) {
      // Almost every span carries no tracestate: no expression runs for it.
      if (traceState === '') continue;
      const { mark } = samplingWeightOf(traceState);
      if (mark === 'valid') this.samplingMarked++;
      else if (mark === 'invalid') this.samplingMarkInvalid++;
    }
  }

  /** Spans dropped one by one inside an accepted request (partial success). */
  countInvalidSpans(n: number): void {
    this.spansInvalid += n;
    if (n > 0) this.lastRefusedAt = Date.now();
  }
}
