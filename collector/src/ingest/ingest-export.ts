import { decodeTraces } from '../otlp/decode-traces.js';
import { decodedBytesEstimate } from '../otlp/decoded-size.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import { type OtlpEncoding, RpcCode } from '../otlp/otlp-responses.js';
import { DecodeBudgetError } from './decode-budget.js';
import type { TracesHandlerDeps } from './ingest-deps.js';
import { type BodyBudget, BodyError } from './read-body.js';

/**
 * What became of one export, in both transports' terms: `status` is the OTLP/HTTP answer (also the
 * key of `faultline_otlp_responses_total`, so gRPC answers count under the same codes), `code` the
 * google.rpc.Code a gRPC call ends with. The HTTP and gRPC receivers differ only in how they read
 * the body and how they send this.
 */
export type ExportOutcome = { ok: true; rejectedSpans: number; message: string } | ExportFailure;

/** A refused export, whatever its signal. */
export interface ExportFailure {
  ok: false;
  status: number;
  code: number;
  message: string;
  /** Seconds, for Retry-After / google.rpc.RetryInfo; only on answers a client should retry. */
  retryAfter?: number;
  /** The refusal came before or while the body was read: the transport drains what is left. */
  unread?: boolean;
}

/** Seconds a client should wait when the collector is stopping. */
export const CLOSING_RETRY_AFTER = 5;

/**
 * The refusals that need no body: shutdown (503/UNAVAILABLE) and a writer still saturated since its
 * last refusal (429/RESOURCE_EXHAUSTED, refused unread so overload costs neither memory nor CPU).
 */
export function refuseUnread(deps: TracesHandlerDeps): ExportOutcome | undefined {
  if (deps.isClosing()) return closingRefusal();
  if (deps.saturation) {
    if (deps.writer.stats().queueDepth >= deps.saturation.queueDepth) {
      const { retryAfter, message } = deps.saturation;
      return { ok: false, status: 429, code: RpcCode.RESOURCE_EXHAUSTED, message, retryAfter, unread: true };
    }
    deps.saturation = undefined;
  }
  return undefined;
}

/** The answer to an export that arrives once shutdown began (both signals, both transports). */
export function closingRefusal(): ExportFailure {
  return {
    ok: false,
    status: 503,
    code: RpcCode.UNAVAILABLE,
    message: 'collector is shutting down; retry later',
    retryAfter: CLOSING_RETRY_AFTER,
    unread: true,
  };
}

/**
 * Reads (through `read`, which reserves on the shared decode budget), decodes and writes one
 * export, and resolves only once its rows are durable (writer.write resolved) or refused. Counts
 * everything in `deps.stats` except the response itself, which the transport counts as it sends.
 */
export async function ingestExport(
  deps: TracesHandlerDeps,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<ExportOutcome> {
  const { config, stats } = deps;
  // Counted until write() is called, so shutdown knows when no more rows can arrive.
  deps.decoding.count++;
  // Held from the first body byte until the rows are handed to the writer, which then bounds them.
  const lease = deps.decodeBudget.lease();
  let decoded: ReturnType<typeof decodeTraces>;
  try {
    const holdFor = (n: number) => n + decodedBytesEstimate(n, encoding);
    const body = await read({ lease, holdFor });
    decoded = decodeTraces(body, encoding, config, deps.logJoin);
    stats.bodiesDecoded++;
    stats.bytesDecoded += body.length;
  } catch (err) {
    lease.release();
    deps.decoding.count--;
    return decodeFailure(err);
  }
  const spanCount = decoded.rows.length;
  stats.countSamplingMarks(decoded.rows);
  let written: Promise<void> | undefined;
  try {
    if (spanCount > 0) written = deps.writer.write(decoded.rows);
  } catch (err) {
    written = Promise.reject(err);
  } finally {
    // The writer has the rows now (serialized, within its own queue bounds): drop ours, so they do
    // not stay alive until the acknowledgement uncounted by the budget.
    decoded.rows = [];
    lease.release();
    deps.decoding.count--;
  }

  stats.countInvalidSpans(decoded.rejectedSpans);
  stats.valuesTruncated += decoded.truncatedValues;
  if (written) {
    try {
      await written;
    } catch (err) {
      stats.spansRefusedSaturated += spanCount;
      const retryAfter = retryAfterOf(err);
      if (isSaturated(err)) {
        const message = `collector is saturated; retry after ${retryAfter}s`;
        const queueDepth = deps.writer.stats().queueDepth;
        // Only a full memory queue is remembered; a full spool is re-checked on every write.
        if (queueDepth > 0) deps.saturation = { queueDepth, retryAfter, message };
        return { ok: false, status: 429, code: RpcCode.RESOURCE_EXHAUSTED, message, retryAfter };
      }
      return {
        ok: false,
        status: 503,
        code: RpcCode.UNAVAILABLE,
        message: `spans could not be stored: ${(err as Error).message}; retry later`,
        retryAfter,
      };
    }
  }
  return { ok: true, rejectedSpans: decoded.rejectedSpans, message: decoded.message };
}

/**
 * What a body that could not be read or decoded is answered (both signals): 429 while the decode
 * budget stays full, else the 4xx the reader or decoder named.
 */
export function decodeFailure(err: unknown): ExportFailure {
  if (err instanceof DecodeBudgetError) {
    return {
      ok: false,
      status: 429,
      code: RpcCode.RESOURCE_EXHAUSTED,
      message: err.message,
      retryAfter: err.retryAfterSeconds,
      unread: true,
    };
  }
  const invalid = (status: number, message: string): ExportFailure => ({
    ok: false,
    status,
    code: RpcCode.INVALID_ARGUMENT,
    message,
  });
  if (err instanceof BodyError || err instanceof OtlpDecodeError) return invalid(err.status, err.message);
  // Anything else escaping a decoder is still bad input (e.g. a RangeError on absurd data).
  return invalid(400, `could not decode the request: ${(err as Error).message}`);
}

export function isSaturated(err: unknown): boolean {
  return err instanceof Error && err.name === 'SaturatedError';
}

export function retryAfterOf(err: unknown): number {
  const s = (err as { retryAfterSeconds?: unknown })?.retryAfterSeconds;
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : 1;
}
