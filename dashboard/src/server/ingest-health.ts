import type { IngestHealth } from '@faultline/collector';
import { collectorModule } from './collector-module';

/** Accepted spans may wait this long for their insert before the banner calls them stuck. */
export const STUCK_AFTER_MS = 5_000;

/**
 * The in-process collector's ingest health (the one-process `npm start`), or null when no
 * collector runs in this process (`--only dashboard` against a server: ask that collector's
 * GET /healthz instead).
 */
export async function loadIngestHealth(): Promise<IngestHealth | null> {
  const { readIngestHealth } = await collectorModule();
  return readIngestHealth();
}

export interface IngestProblems {
  /**
   * Acknowledged spans that pages and SQL do not show yet, for longer than the normal moment
   * between ack and insert, or already after a failed insert.
   */
  unstored: boolean;
  /** Requests or spans refused since the collector started. */
  refused: boolean;
  /** Spans ClickHouse refused on their own, set aside while the rest of their batches landed. */
  quarantined: boolean;
}

export function ingestProblems(h: IngestHealth, now: number): IngestProblems {
  const since = h.oldestPendingAt;
  const waiting = h.pending > 0 && since !== null;
  const failedSince = waiting && h.insertErrors.lastAt !== null && h.insertErrors.lastAt >= since;
  return {
    unstored: (waiting && (now - since >= STUCK_AFTER_MS || failedSince)) || h.walError !== null,
    refused: h.refused.requests > 0 || h.refused.spans > 0,
    quarantined: h.quarantine.spans > 0,
  };
}
