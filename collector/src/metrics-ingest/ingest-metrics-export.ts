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
import { decodeMetrics } from './decode-metrics.js';
import type { MetricsDecodeResult } from './metrics-decode-context.js';
import type { MetricsHandlerDeps } from './metrics-handler-deps.js';

/** What became of one metrics export; failures are answered exactly as trace exports are. */
export type MetricsOutcome = { ok: true; rejectedPoints: number; message: string } | ExportFailure;

/**
 * Reads (on the shared decode budget), decodes and writes one metrics export, resolving only once
 * its rows are durable in the count writer or refused: the trace path's rules (ingestExport) for
 * the other signal. Refusals that need no body: only shutdown; the count writer's saturation is
 * met when it refuses a write (metrics exports are small and rare next to spans).
 */
export async function ingestMetricsExport(
  deps: MetricsHandlerDeps,
  encoding: OtlpEncoding,
  read: (budget: BodyBudget) => Promise<Buffer>,
): Promise<MetricsOutcome> {
  const { receiver, stats } = deps;
  if (receiver.isClosing()) return closingRefusal();
  // Counted until write() is called, so shutdown knows when no more rows can arrive.
  receiver.decoding.count++;
  const lease = receiver.decodeBudget.lease();
  let decoded: MetricsDecodeResult;
  try {
    const body = await read({ lease, holdFor: (n) => n + decodedBytesEstimate(n, encoding) });
    decoded = decodeMetrics(body, encoding, receiver.config);
    stats.bodiesDecoded++;
    stats.bytesDecoded += body.length;
  } catch (err) {
    lease.release();
    receiver.decoding.count--;
    return decodeFailure(err);
  }
  const points = decoded.rows.length;
  let written: Promise<void> | undefined;
  try {
    if (points > 0) written = deps.writer.write(decoded.rows);
  } catch (err) {
    written = Promise.reject(err);
  } finally {
    decoded.rows = [];
    lease.release();
    receiver.decoding.count--;
  }
  stats.pointsInvalid += decoded.rejectedPoints;
  stats.pointsIgnored += decoded.ignoredPoints;
  stats.valuesTruncated += decoded.truncatedValues;
  if (decoded.rejectedPoints > 0) stats.lastRefusedAt = Date.now();
  if (written) {
    try {
      await written;
    } catch (err) {
      stats.pointsRefusedSaturated += points;
      const retryAfter = retryAfterOf(err);
      if (isSaturated(err)) {
        const message = `collector is saturated; retry after ${retryAfter}s`;
        return { ok: false, status: 429, code: RpcCode.RESOURCE_EXHAUSTED, message, retryAfter };
      }
      return {
        ok: false,
        status: 503,
        code: RpcCode.UNAVAILABLE,
        message: `data points could not be stored: ${(err as Error).message}; retry later`,
        retryAfter,
      };
    }
  }
  return { ok: true, rejectedPoints: decoded.rejectedPoints, message: decoded.message };
}
