import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { CLUSTER_INSERT_SETTINGS, resolveClusterName } from '@faultline/sql';
import type { WriterOptions } from '../types.js';

export type ResolvedWriterOptions = Required<Omit<WriterOptions, 'spoolDir'>> & { spoolDir: string };

function insertDedupOf(o: WriterOptions): 'segment' | 'request' {
  const value = o.insertDedup ?? (process.env.FAULTLINE_INSERT_DEDUP || 'segment');
  if (value !== 'segment' && value !== 'request') {
    throw new Error(
      `writer option insertDedup (env FAULTLINE_INSERT_DEDUP) must be "segment" (replays once; retries at least once) or "request" (a retried export once, across collectors), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function ackAfterOf(o: WriterOptions): 'insert' | 'wal' {
  const value = o.ackAfter ?? (process.env.FAULTLINE_WRITER_ACK || 'wal');
  if (value !== 'insert' && value !== 'wal') {
    throw new Error(
      `writer option ackAfter (env FAULTLINE_WRITER_ACK) must be "insert" or "wal", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** Where the write-ahead log lives when neither `spoolDir` nor FAULTLINE_SPOOL_DIR says. */
export function defaultSpoolDir(dataDir: string | undefined): string {
  // Inside the data directory: each FAULTLINE_DATA_DIR has its own log, locked with it, and the
  // log moves, is backed up and is deleted with the data it belongs to. chDB ignores the folder.
  // A server has no local directory of its own: the working directory's default, locked too.
  return dataDir ? join(dataDir, 'wal') : resolve('./.faultline/spool');
}

function spoolDirOf(o: WriterOptions, dataDir: string | undefined): string {
  const fromOption = o.spoolDir !== undefined;
  const name = fromOption ? 'writer option spoolDir' : 'FAULTLINE_SPOOL_DIR';
  const raw = fromOption ? o.spoolDir : process.env.FAULTLINE_SPOOL_DIR;
  if (fromOption && (typeof raw !== 'string' || raw.trim() === '')) {
    throw new Error(`${name} must be a directory path, got ${JSON.stringify(raw)}`);
  }
  if (raw === undefined || raw.trim() === '') return defaultSpoolDir(dataDir);
  // `{hostname}`: one log per container on a volume replicas share (each directory is locked by one process).
  const dir = resolve(raw.replaceAll('{hostname}', hostname()));
  if (dataDir !== undefined && dir === resolve(dataDir)) {
    throw new Error(
      `${name} (${dir}) cannot be the data directory itself, which chDB owns: leave it unset for ${join(dir, 'wal')}, or name another directory`,
    );
  }
  let isDir = true;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // Created at start.
  }
  if (!isDir) throw new Error(`${name} (${dir}) exists and is not a directory: name a directory`);
  return dir;
}

/**
 * Defaults, then range checks whose messages name the option and the fix. `dataDir` is the
 * embedded store's directory, under which the write-ahead log lives by default.
 */
export function resolveWriterOptions(o: WriterOptions, dataDir?: string): ResolvedWriterOptions {
  const ackAfter = ackAfterOf(o);
  const wal = ackAfter === 'wal';
  if (!wal && insertDedupOf(o) === 'request')
    throw new Error(
      'writer option insertDedup "request" (env FAULTLINE_INSERT_DEDUP=request) needs ackAfter "wal" (env FAULTLINE_WRITER_ACK=wal, the default): only the write-ahead log makes each export a segment of its own under its content token.',
    );
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
    spoolDir: spoolDirOf(o, dataDir),
    maxSpoolBytes: o.maxSpoolBytes ?? 1024 ** 3,
    retryAfterSeconds: o.retryAfterSeconds ?? 1,
    retryDelayMs: o.retryDelayMs ?? 250,
    maxRetryDelayMs: o.maxRetryDelayMs ?? 5_000,
    maxConcurrentInserts: o.maxConcurrentInserts ?? 2,
    insertTimeoutMs: o.insertTimeoutMs ?? 30_000,
    table: o.table ?? 'otel_traces',
    insertDedup: insertDedupOf(o),
    // Through a cluster's Distributed table an insert must wait for the shards (cluster-settings.ts).
    insertSettings:
      o.insertSettings ??
      (process.env.FAULTLINE_CLICKHOUSE_URL && resolveClusterName() ? { ...CLUSTER_INSERT_SETTINGS } : {}),
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
