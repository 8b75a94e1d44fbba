import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import type { SpanWriter, WriterOptions } from '../types.js';
import { createSpanWriter } from '../writer/index.js';
import { type LogRow, OTEL_LOGS_TABLE } from './log-row.js';

/** The span writer's interface over otel_logs rows: same durability, stats and lifecycle. */
export type LogWriter = Omit<SpanWriter, 'write'> & { write(rows: LogRow[]): Promise<void> };

/** The log writer's log, inside the span writer's (as the count writer's): one place, moved together. */
export const LOG_WAL_DIR = OTEL_LOGS_TABLE;

/**
 * The durable writer for log records: the span writer's machinery (write-ahead log or spool, fsync
 * before the acknowledgement, ordered background INSERTs under deduplication tokens, replay at
 * start, row isolation) over a log of its own in `<span log>/otel_logs`, inserting into otel_logs.
 * A writer of its own keeps the span path untouched. Deduplication follows the span writer's
 * setting: a record's nanosecond time makes equal rows a repeat of the same export.
 */
export function createLogWriter(store: Store, spanLogDir: string, options: WriterOptions = {}): LogWriter {
  const writer = createSpanWriter(store, {
    ...options,
    spoolDir: join(spanLogDir, LOG_WAL_DIR),
    table: OTEL_LOGS_TABLE,
  });
  // The writer serializes any JSON-serializable row (JSONEachRow) into `table`; only its signature names TraceRow.
  return writer as unknown as LogWriter;
}
