/** What the metrics receiver counts itself (the count writer keeps its own; /metrics shows both). */
export class MetricsIngestStats {
  /** Responses to POST /v1/metrics and MetricsService/Export, by HTTP status (gRPC mapped alike). */
  readonly responses = new Map<number, number>();
  /** faultline.* points refused inside accepted requests (cumulative, not a Sum, bad value or time). */
  pointsInvalid = 0;
  /** Points in requests answered 429/503 because the count writer was saturated or failing. */
  pointsRefusedSaturated = 0;
  /** Points of other metrics: accepted, not stored. */
  pointsIgnored = 0;
  valuesTruncated = 0;
  bodiesDecoded = 0;
  bytesDecoded = 0;
  lastRefusedAt: number | null = null;

  countResponse(status: number): void {
    this.responses.set(status, (this.responses.get(status) ?? 0) + 1);
    if (status >= 400) this.lastRefusedAt = Date.now();
  }
}
