import type { ReceiverConfig } from '../config/receiver-config.js';
import type { OtlpEncoding } from '../otlp/otlp-responses.js';
import type { ExportFailure } from './ingest-export.js';
import type { BodyBudget } from './read-body.js';
import type { ResponseCounts } from './response-counts.js';

/** An export a signal accepted: what partial_success says of it. */
export interface AcceptedExport {
  ok: true;
  message: string;
}

/**
 * One signal's Export (traces, metrics, logs), described once for both transports: OTLP/HTTP
 * (handle-signal-export.ts) and gRPC (grpc/handle-export.ts) serve it with the same token, answers
 * and counters.
 */
export interface SignalExport<Accepted extends AcceptedExport> {
  /** Names the signal in the log line of a call that failed unexpectedly ("gRPC <what> failed"). */
  what: string;
  /** The receiver's config: its ingest token, and the body limits of an HTTP request. */
  config: ReceiverConfig;
  /** Where the answers are counted. */
  stats: ResponseCounts;
  /**
   * The signal's rules (refusals, decode budget, writer, counters) for one message in `encoding`,
   * read through `read`; resolves once the rows are durable or refused.
   */
  ingest: (
    encoding: OtlpEncoding,
    read: (budget: BodyBudget) => Promise<Buffer>,
  ) => Promise<Accepted | ExportFailure>;
  /** The partial_success count of an accepted export (rejected spans, data points, log records). */
  rejectedOf: (outcome: Accepted) => number;
  /** partial_success's field for that count in an OTLP/JSON answer. */
  rejectedField: 'rejectedSpans' | 'rejectedDataPoints' | 'rejectedLogRecords';
}
