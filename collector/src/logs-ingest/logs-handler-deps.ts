import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import type { LogWriter } from './log-writer.js';
import type { LogsIngestStats } from './logs-ingest-stats.js';
import type { SpanLogJoin } from './span-log-join.js';

/** What both transports hand a logs export to be ingested. */
export interface LogsHandlerDeps {
  /**
   * The trace receiver's shared parts: config (token, limits), the decode budget (one memory bound
   * for all requests), the closing flag and the in-decode count shutdown waits for.
   */
  receiver: Pick<TracesHandlerDeps, 'config' | 'decodeBudget' | 'isClosing' | 'decoding'>;
  writer: LogWriter;
  stats: LogsIngestStats;
  /** Joins records to their spans (the same instance the trace receiver classifies spans with). */
  join: SpanLogJoin;
}
