import {
  closingRefusal,
  decodeFailure,
  type ExportFailure,
  isSaturated,
  retryAfterOf,
} from '../ingest/ingest-export.js';
import type { BodyBudget } from '../ingest/read-body.js';
import { decodedBytesEstimate } from '../otlp/decoded-size.js';
import { type OtlpEncoding, RpcCode } from '../otlp/otlp-responses.js';
import { decodeLogs } from './decode-logs.js';
import type { LogsDecodeResult } from './logs-decode-context.js';
import type { LogsHandlerDeps } from './logs-handler-deps.js';

/** What became of one logs export; failures are answered exactly as trace exports are. */
export type LogsOutcome = { ok: true; rejectedRecords: number; message: string } | ExportFailure;

/**
 * Reads (on the shared decode budget), decodes and writes one logs export, resolving only once its
 * rows are durable in the log writer or refused: the trace path's rules (ingestExport) for the
 * other signal. A record that explains a span this collector classified is written only once that
 * span is inserted (span-log-join.ts), so the view that replaces the span's guess sees it.
 */
export async function ingestLogsExport(
  deps: LogsHandlerDeps,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<LogsOutcome> {
  const { receiver, stats } = deps;
  if (receiver.isClosing()) return closingRefusal();
  // Counted until write() is called, so shutdown knows when no more rows can arrive.
  receiver.decoding.count++;
  const lease = receiver.decodeBudget.lease();
  let decoded: LogsDecodeResult;
  try {
    const body = await read({ lease, holdFor: (n) => n + decodedBytesEstimate(n, encoding) });
    decoded = decodeLogs(body, encoding, receiver.config, deps.join);
    stats.bodiesDecoded++;
    stats.bytesDecoded += body.length;
  } catch (err) {
    lease.release();
    receiver.decoding.count--;
    return decodeFailure(err);
  }
  const records = decoded.rows.length;
  let written: Promise<void> | undefined;
  try {
    if (decoded.explainsSeenSpans > 0) await deps.join.spansInserted();
    if (records > 0) written = deps.writer.write(decoded.rows);
  } catch (err) {
    written = Promise.reject(err);
  } finally {
    decoded.rows = [];
    lease.release();
    receiver.decoding.count--;
  }
  stats.recordsInvalid += decoded.rejectedRecords;
  stats.valuesTruncated += decoded.truncatedValues;
  if (decoded.rejectedRecords > 0) stats.lastRefusedAt = Date.now();
  if (written) {
    try {
      await written;
    } catch (err) {
      stats.recordsRefusedSaturated += records;
      const retryAfter = retryAfterOf(err);
      if (isSaturated(err)) {
        const message = `collector is saturated; retry after ${retryAfter}s`;
        return { ok: false, status: 429, code: RpcCode.RESOURCE_EXHAUSTED, message, retryAfter };
      }
      return {
        ok: false,
        status: 503,
        code: RpcCode.UNAVAILABLE,
        message: `log records could not be stored: ${(err as Error).message}; retry later`,
        retryAfter,
      };
    }
    stats.failureRecords += decoded.failureRecords;
  }
  return { ok: true, rejectedRecords: decoded.rejectedRecords, message: decoded.message };
}
