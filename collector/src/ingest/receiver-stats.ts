import { samplingWeightOf } from '@faultline/instrumentation/envelope';
import { ResponseCounts } from './response-counts.js';

/**
 * Counters the receiver keeps itself (the writer keeps its own; /metrics shows both): its answers
 * to /v1/traces and TraceService/Export (ResponseCounts), and what became of their spans.
 */
export class ReceiverStats extends ResponseCounts {
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
