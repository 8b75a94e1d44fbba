import type { Store } from '@faultline/sql';
import { insertBatch } from '@faultline/sql';
import type { WriterStats } from '../types.js';
import type { LatencyRecorder } from './latency-histogram.js';
import type { ResolvedWriterOptions } from './resolve-writer-options.js';
import type { QuarantinedRows, SpoolSegment } from './spool.js';

/** The counters both writers keep; `stats()` spreads them into WriterStats. */
export interface WriterCounters {
  accepted: number;
  rejected: number;
  spooled: number;
  replayed: number;
  inserted: number;
  insertErrors: number;
  quarantined: number;
  splitBatches: number;
}

export function newWriterCounters(): WriterCounters {
  return {
    accepted: 0,
    rejected: 0,
    spooled: 0,
    replayed: 0,
    inserted: 0,
    insertErrors: 0,
    quarantined: 0,
    splitBatches: 0,
  };
}

/** The last failed insert as stats report it: its text (bounded) and when. */
export function insertErrorOf(err: unknown, at: number): { message: string; at: number } {
  let message = err instanceof Error ? err.message : String(err);
  if (message.length > 500) message = `${message.slice(0, 500)}…`;
  return { message, at };
}

/** Counts a quarantine and says where the rows went, once per segment; returns it for stats(). */
export function noteQuarantine(
  counters: WriterCounters,
  q: QuarantinedRows,
): NonNullable<WriterStats['lastQuarantine']> {
  counters.quarantined += q.rows;
  console.error(
    `[faultline] ClickHouse refused ${q.rows} span(s) on their own; the rest of their batch is stored. Kept with the reason in ${q.file}: ${q.reason}`,
  );
  return { ...q, at: Date.now() };
}

/**
 * Counts a segment the segment inserter stored, the same way in both writers: its rows less the
 * ones set aside, the split it took, the quarantine. Returns the quarantine noted, or null if none.
 */
export function countReplayed(
  counters: WriterCounters,
  segment: SpoolSegment,
  quarantined: QuarantinedRows | null,
  split: boolean,
): WriterStats['lastQuarantine'] {
  const stored = segment.rows - (quarantined?.rows ?? 0);
  if (split) counters.splitBatches++;
  counters.replayed += stored;
  counters.inserted += stored;
  return quarantined ? noteQuarantine(counters, quarantined) : null;
}

/**
 * The one INSERT both writers make: schema first (a server that was down at open gets it now),
 * under the batch's deduplication token, bounded in time, its latency recorded for /metrics.
 */
export function createTimedInsert(
  store: Store,
  o: ResolvedWriterOptions,
  latency: LatencyRecorder,
): (body: string | Buffer, token: string) => Promise<void> {
  return async (body, token) => {
    await store.ensureSchema();
    const started = performance.now();
    await insertBatch(store.client, body, {
      table: o.table,
      token,
      settings: o.insertSettings,
      signal: AbortSignal.timeout(o.insertTimeoutMs),
    });
    latency.observe((performance.now() - started) / 1000);
  };
}
