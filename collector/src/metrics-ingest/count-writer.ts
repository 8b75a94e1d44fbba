import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import type { SpanWriter, WriterOptions } from '../types.js';
import { createSpanWriter } from '../writer/index.js';
import { CALL_COUNTS_TABLE, type CallCountRow } from './call-count-row.js';

/** The span writer's interface over call_counts_1m rows: same durability, stats and lifecycle. */
export type CountWriter = Omit<SpanWriter, 'write'> & { write(rows: CallCountRow[]): Promise<void> };

/** The count writer's log, inside the span writer's: one lock per process holds both, they move together. */
export const COUNT_LOG_DIR = CALL_COUNTS_TABLE;

/**
 * The durable writer for the exact counts: the span writer's own machinery (write-ahead log or
 * spool, fsync before the acknowledgement, ordered background INSERTs under a deduplication token,
 * replay at start, row isolation) over a log of its own in `<span log>/call_counts_1m`, inserting
 * into call_counts_1m. A second writer instead of a second table in one log keeps the span path
 * untouched: its segments, tokens and bounds are exactly what they were.
 *
 * Deduplication is always per segment (random tokens, replays stored once). The `request` mode's
 * content tokens would be wrong here: two exports of one service in one minute with the same
 * counts are equal rows, and the second would be dropped as a repeat of the first.
 */
export function createCountWriter(
  store: Store,
  spanLogDir: string,
  options: WriterOptions = {},
): CountWriter {
  const writer = createSpanWriter(store, {
    ...options,
    spoolDir: join(spanLogDir, COUNT_LOG_DIR),
    table: CALL_COUNTS_TABLE,
    insertDedup: 'segment',
  });
  // The writer serializes any JSON-serializable row (one JSON.stringify per row, JSONEachRow) and
  // inserts it into `table`; only its signature names TraceRow.
  return writer as unknown as CountWriter;
}
