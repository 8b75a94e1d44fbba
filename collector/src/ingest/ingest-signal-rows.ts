import { decodedBytesEstimate } from '../otlp/decoded-size.js';
import { type OtlpEncoding, RpcCode } from '../otlp/otlp-responses.js';
import type { TracesHandlerDeps } from './ingest-deps.js';
import {
  closingRefusal,
  decodeFailure,
  type ExportFailure,
  isSaturated,
  retryAfterOf,
} from './ingest-export.js';
import type { BodyBudget } from './read-body.js';
import type { ResponseCounts } from './response-counts.js';

/** What a side signal's decode gives: its rows, and what partial_success says of the rest. */
export interface DecodedRows<Row> {
  rows: Row[];
  message: string;
  truncatedValues: number;
}

/** A side signal (metrics, logs) as ingestSignalRows reads, writes and counts it. */
export interface SignalRows<Decoded extends DecodedRows<unknown>> {
  /** The trace receiver's shared parts: config (limits), the decode budget, closing, in-decode count. */
  receiver: Pick<TracesHandlerDeps, 'config' | 'decodeBudget' | 'isClosing' | 'decoding'>;
  stats: ResponseCounts & { bodiesDecoded: number; bytesDecoded: number; valuesTruncated: number };
  /** What the rows are, in the answer when they could not be stored ("data points"). */
  noun: string;
  decode(body: Buffer, encoding: OtlpEncoding): Decoded;
  /** How many of the message's items the decode refused (partial_success's count). */
  rejectedOf(decoded: Decoded): number;
  /** Awaited before the write, when the rows must wait for something (log records, their spans). */
  beforeWrite?(decoded: Decoded): Promise<void> | undefined;
  write(rows: Decoded['rows']): Promise<void>;
  /** The signal's own counters of a decoded message: refused, ignored items. */
  countDecoded(decoded: Decoded): void;
  /** The signal's counter of rows refused because the writer was saturated or failing. */
  countRefused(rows: number): void;
  /** The signal's counters of stored rows, once durable. */
  countStored?(decoded: Decoded): void;
}

/**
 * Reads (on the shared decode budget), decodes and writes one export of a side signal, resolving
 * only once its rows are durable in the signal's writer or refused: the trace path's rules
 * (ingestExport) for metrics and logs, each signal bringing its decode, writer and counters.
 */
export async function ingestSignalRows<Decoded extends DecodedRows<unknown>>(
  signal: SignalRows<Decoded>,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<{ ok: true; rejected: number; message: string } | ExportFailure> {
  const { receiver, stats } = signal;
  if (receiver.isClosing()) return closingRefusal();
  // Counted until write() is called, so shutdown knows when no more rows can arrive.
  receiver.decoding.count++;
  const lease = receiver.decodeBudget.lease();
  let decoded: Decoded;
  try {
    const body = await read({ lease, holdFor: (n) => n + decodedBytesEstimate(n, encoding) });
    decoded = signal.decode(body, encoding);
    stats.bodiesDecoded++;
    stats.bytesDecoded += body.length;
  } catch (err) {
    lease.release();
    receiver.decoding.count--;
    return decodeFailure(err);
  }
  const rows = decoded.rows.length;
  let written: Promise<void> | undefined;
  try {
    await signal.beforeWrite?.(decoded);
    if (rows > 0) written = signal.write(decoded.rows);
  } catch (err) {
    written = Promise.reject(err);
  } finally {
    decoded.rows = [];
    lease.release();
    receiver.decoding.count--;
  }
  const rejected = signal.rejectedOf(decoded);
  signal.countDecoded(decoded);
  stats.valuesTruncated += decoded.truncatedValues;
  if (rejected > 0) stats.lastRefusedAt = Date.now();
  if (written) {
    try {
      await written;
    } catch (err) {
      signal.countRefused(rows);
      const retryAfter = retryAfterOf(err);
      if (isSaturated(err)) {
        const message = `collector is saturated; retry after ${retryAfter}s`;
        return { ok: false, status: 429, code: RpcCode.RESOURCE_EXHAUSTED, message, retryAfter };
      }
      return {
        ok: false,
        status: 503,
        code: RpcCode.UNAVAILABLE,
        message: `${signal.noun} could not be stored: ${(err as Error).message}; retry later`,
        retryAfter,
      };
    }
    signal.countStored?.(decoded);
  }
  return { ok: true, rejected, message: decoded.message };
}
