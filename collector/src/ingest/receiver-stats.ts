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
  /** Bodies decoded, and the bytes they held after decompression. */
  bodiesDecoded = 0;
  bytesDecoded = 0;

  /** When a request or a span was last refused (epoch ms), or null. */
  lastRefusedAt: number | null = null;

  countResponse(status: number): void {
    this.responses.set(status, (this.responses.get(status) ?? 0) + 1);
    if (status >= 400) this.lastRefusedAt = Date.now();
  }

  /** Spans dropped one by one inside an accepted request (partial success). */
  countInvalidSpans(n: number): void {
    this.spansInvalid += n;
    if (n > 0) this.lastRefusedAt = Date.now();
  }
}
