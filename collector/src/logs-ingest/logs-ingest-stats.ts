import { ResponseCounts } from '../ingest/response-counts.js';

/**
 * What the logs receiver counts itself (the log writer keeps its own; /metrics shows both): its
 * answers to POST /v1/logs and LogsService/Export (ResponseCounts), and what became of their records.
 */
export class LogsIngestStats extends ResponseCounts {
  /** Records refused inside accepted requests (unusable ids, impossible times). */
  recordsInvalid = 0;
  /** Records in requests answered 429/503 because the log writer was saturated or failing. */
  recordsRefusedSaturated = 0;
  /** Accepted records classified as failures. */
  failureRecords = 0;
  valuesTruncated = 0;
  bodiesDecoded = 0;
  bytesDecoded = 0;
}
