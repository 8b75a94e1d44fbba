import type { ReceiverConfig } from '../config/receiver-config.js';
import type { SpanLogJoin } from '../logs-ingest/span-log-join.js';
import type { SpanWriter } from '../types.js';
import type { DecodeBudget } from './decode-budget.js';
import type { ReceiverStats } from './receiver-stats.js';

/** What both transports (OTLP/HTTP and OTLP/gRPC) hand an export to be ingested. */
export interface TracesHandlerDeps {
  config: ReceiverConfig;
  writer: SpanWriter;
  stats: ReceiverStats;
  /** Bytes all requests may hold while being read and decoded; shared by the whole receiver. */
  decodeBudget: DecodeBudget;
  /** True once shutdown began: new exports get 503 so clients retry elsewhere or later. */
  isClosing: () => boolean;
  /** Requests between the closing check and their write() call. */
  decoding: { count: number };
  /** Joins spans to the log records that explain them, when the collector receives logs. */
  logJoin?: SpanLogJoin;
  /** Set when the writer last refused a batch: while its queue is no shorter, refuse unread. */
  saturation?: { queueDepth: number; retryAfter: number; message: string };
}
