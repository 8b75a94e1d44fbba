import { resolve } from 'node:path';
import type { WriterOptions } from '../types.js';

export type ResolvedWriterOptions = Required<Omit<WriterOptions, 'spoolDir'>> & { spoolDir: string };

function ackAfterOf(o: WriterOptions): 'insert' | 'wal' {
  const value = o.ackAfter ?? (process.env.FAULTLINE_WRITER_ACK || 'wal');
  if (value !== 'insert' && value !== 'wal') {
    throw new Error(
      `writer option ackAfter (env FAULTLINE_WRITER_ACK) must be "insert" or "wal", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Defaults, then range checks whose messages name the option and the fix. */
export function resolveWriterOptions(o: WriterOptions): ResolvedWriterOptions {
  const ackAfter = ackAfterOf(o);
  const wal = ackAfter === 'wal';
  const resolved: ResolvedWriterOptions = {
    ackAfter,
    // Default batch bounds shrink to fit a smaller queue; only explicit conflicts are errors. In
    // `wal` mode a batch is a segment on disk, read back one at a time, so it may be larger.
    maxBatchSpans: o.maxBatchSpans ?? (wal ? 50_000 : Math.min(25_000, o.maxQueueSpans ?? 50_000)),
    maxBatchBytes:
      o.maxBatchBytes ?? (wal ? 48 * 1024 ** 2 : Math.min(32 * 1024 ** 2, o.maxQueueBytes ?? 64 * 1024 ** 2)),
    maxBatchDelayMs: o.maxBatchDelayMs ?? 200,
    maxQueueSpans: o.maxQueueSpans ?? 50_000,
    maxQueueBytes: o.maxQueueBytes ?? 64 * 1024 ** 2,
    maxWalBytes: o.maxWalBytes ?? 256 * 1024 ** 2,
    drainTimeoutMs: o.drainTimeoutMs ?? 20_000,
    adaptiveBatching: o.adaptiveBatching ?? true,
    spoolDir: resolve(o.spoolDir ?? (process.env.FAULTLINE_SPOOL_DIR || './.faultline/spool')),
    maxSpoolBytes: o.maxSpoolBytes ?? 1024 ** 3,
    retryAfterSeconds: o.retryAfterSeconds ?? 1,
    retryDelayMs: o.retryDelayMs ?? 250,
    maxRetryDelayMs: o.maxRetryDelayMs ?? 5_000,
    maxConcurrentInserts: o.maxConcurrentInserts ?? 2,
    insertTimeoutMs: o.insertTimeoutMs ?? 30_000,
    maxReplayAttempts: o.maxReplayAttempts ?? 10,
    table: o.table ?? 'otel_traces',
    insertSettings: o.insertSettings ?? {},
  };
  for (const [key, value] of Object.entries(resolved.insertSettings)) {
    if (!/^[a-z][a-z0-9_]*$/.test(key) || typeof value !== 'number' || !Number.isFinite(value)) {
      throw new Error(
        `writer option insertSettings must map ClickHouse setting names to numbers, got ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
      );
    }
  }
  for (const [key, value] of Object.entries(resolved)) {
    if (
      typeof value === 'number' &&
      (!Number.isFinite(value) || value < (key === 'maxBatchDelayMs' || key === 'drainTimeoutMs' ? 0 : 1))
    ) {
      throw new Error(`writer option ${key} must be a positive number, got ${value}`);
    }
  }
  if (wal) {
    // The queue bounds cover only the group waiting for its fsync; the segment bound is the WAL's.
    if (resolved.maxBatchBytes > resolved.maxWalBytes) {
      throw new Error(
        `writer option maxBatchBytes (${resolved.maxBatchBytes}) cannot exceed maxWalBytes (${resolved.maxWalBytes})`,
      );
    }
    return resolved;
  }
  if (resolved.maxBatchSpans > resolved.maxQueueSpans) {
    throw new Error(
      `writer option maxBatchSpans (${resolved.maxBatchSpans}) cannot exceed maxQueueSpans (${resolved.maxQueueSpans})`,
    );
  }
  if (resolved.maxBatchBytes > resolved.maxQueueBytes) {
    throw new Error(
      `writer option maxBatchBytes (${resolved.maxBatchBytes}) cannot exceed maxQueueBytes (${resolved.maxQueueBytes})`,
    );
  }
  return resolved;
}
