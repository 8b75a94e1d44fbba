import { ResponseCounts } from '../ingest/response-counts.js';

/**
 * What the metrics receiver counts itself (the count writer keeps its own; /metrics shows both): its
 * answers to POST /v1/metrics and MetricsService/Export (ResponseCounts), and what became of their
 * data points.
 */
export class MetricsIngestStats extends ResponseCounts {
  /** faultline.* points refused inside accepted requests (cumulative, not a Sum, bad value or time). */
  pointsInvalid = 0;
  /** Points in requests answered 429/503 because the count writer was saturated or failing. */
  pointsRefusedSaturated = 0;
  /** Points of other metrics: accepted, not stored. */
  pointsIgnored = 0;
  valuesTruncated = 0;
  bodiesDecoded = 0;
  bytesDecoded = 0;
}
