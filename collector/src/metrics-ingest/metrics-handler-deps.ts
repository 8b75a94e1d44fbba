import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import type { CountWriter } from './count-writer.js';
import type { MetricsIngestStats } from './metrics-ingest-stats.js';

/** What both transports hand a metrics export to be ingested. */
export interface MetricsHandlerDeps {
  /**
   * The trace receiver's shared parts: config (token, limits), the decode budget (one memory bound
   * for all requests), the closing flag and the in-decode count shutdown waits for.
   */
  receiver: Pick<TracesHandlerDeps, 'config' | 'decodeBudget' | 'isClosing' | 'decoding'>;
  writer: CountWriter;
  stats: MetricsIngestStats;
}
