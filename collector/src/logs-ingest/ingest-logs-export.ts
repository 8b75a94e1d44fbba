import type { ExportFailure } from '../ingest/ingest-export.js';
import { ingestSignalRows } from '../ingest/ingest-signal-rows.js';
import type { BodyBudget } from '../ingest/read-body.js';
import type { OtlpEncoding } from '../otlp/otlp-responses.js';
import { decodeLogs } from './decode-logs.js';
import type { LogsHandlerDeps } from './logs-handler-deps.js';

/** What became of one logs export; failures are answered exactly as trace exports are. */
export type LogsOutcome = { ok: true; rejectedRecords: number; message: string } | ExportFailure;

/**
 * One logs export through the side signals' rules (ingestSignalRows), into the log writer. A
 * record that explains a span this collector classified is written only once that span is
 * inserted (span-log-join.ts), so the view that replaces the span's guess sees it.
 */
export async function ingestLogsExport(
  deps: LogsHandlerDeps,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<LogsOutcome> {
  const { stats } = deps;
  const outcome = await ingestSignalRows(
    {
      receiver: deps.receiver,
      stats,
      noun: 'log records',
      decode: (body, enc) => decodeLogs(body, enc, deps.receiver.config, deps.join),
      rejectedOf: (decoded) => decoded.rejectedRecords,
      beforeWrite: (decoded) => (decoded.explainsSeenSpans > 0 ? deps.join.spansInserted() : undefined),
      write: (rows) => deps.writer.write(rows),
      countDecoded: (decoded) => {
        stats.recordsInvalid += decoded.rejectedRecords;
      },
      countRefused: (records) => {
        stats.recordsRefusedSaturated += records;
      },
      countStored: (decoded) => {
        stats.failureRecords += decoded.failureRecords;
      },
    },
    encoding,
    read,
  );
  return outcome.ok ? { ok: true, rejectedRecords: outcome.rejected, message: outcome.message } : outcome;
}
