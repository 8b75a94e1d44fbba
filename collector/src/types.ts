import type { TraceRow } from '@faultline/sql';

/** Cumulative insert latency histogram (Prometheus style: counts[i] = observations ≤ le[i]). */
export interface LatencyHistogram {
  /** Upper bounds in seconds, ascending; the implicit last bucket is +Inf. */
  le: number[];
  /** Cumulative counts per bound, same length as `le`. */
  counts: number[];
  count: number;
  sumSeconds: number;
}

export interface WriterStats {
  /** Spans acknowledged to callers (inserted, or fsync'd to the write-ahead log or spool). */
  accepted: number;
  /** Spans refused with SaturatedError. */
  rejected: number;
  /** Spans written to the local spool because ClickHouse failed. */
  spooled: number;
  /** Spans inserted from the spool after recovery or restart. */
  replayed: number;
  /** Spans inserted into ClickHouse, directly or by replay. */
  inserted: number;
  /**
   * Spans waiting for an insert, what the receiver's back-pressure watches: `insert` mode, buffered
   * in memory or being inserted; `wal` mode, accepted (or awaiting their fsync) and not yet inserted.
   */
  queueDepth: number;
  /** Serialized bytes of those spans (JSONEachRow characters). */
  queueBytes: number;
  /** Spans currently on disk in the spool, not yet replayed. */
  spoolDepth: number;
  /** Bytes currently on disk in the spool. */
  spoolBytes: number;
  /** Failed insert attempts (each one spools or retries a batch). */
  insertErrors: number;
  /**
   * Spans acknowledged but not yet inserted, so not yet queryable: in `wal` mode the open and sealed
   * write-ahead segments (normal under load, 0 once idle); in `insert` mode the spool. `settle()`
   * waits for it; tests and dashboards compare with SQL once it is 0.
   */
  pendingInsert: number;
  /** The writer's acknowledgement mode. */
  ackAfter: 'insert' | 'wal';
  /**
   * Spans ClickHouse refused on their own (a value it cannot parse or hold), set aside in
   * `<spoolDir>/rejected` with the reason after their batch was split so the rest landed. Never a
   * span of a batch that failed for the store's sake (unreachable, full or read-only disk).
   */
  quarantined: number;
  /**
   * Batches ClickHouse refused whole for some of their rows (a value it cannot hold, a block over
   * 100 partitions), inserted in parts instead; not insert errors, which are the store's.
   */
  splitBatches: number;
  /** The latest quarantine: how many spans, ClickHouse's reason, the file, and when; null if none. */
  lastQuarantine: { rows: number; reason: string; file: string; at: number } | null;
  /**
   * The write-ahead log's own trouble, null when none: acknowledged spans sit in an open segment
   * that cannot be sealed (a read-only or failing directory). Retried until the directory heals.
   */
  walError: { message: string; since: number; spans: number } | null;
  /**
   * When the oldest span counted in `pendingInsert` was acknowledged (epoch ms), or null when none
   * waits. Under load some spans always wait a moment; an old one means inserts are not landing.
   */
  oldestPendingAt: number | null;
  /** The last failed insert attempt: its error text and when (epoch ms); null if none failed. */
  lastInsertError: { message: string; at: number } | null;
  /** The write-ahead log / spool directory this writer holds locked. */
  spoolDir: string;
  insertLatency: LatencyHistogram;
}

export interface WriterOptions {
  /**
   * What a deduplication token covers (env FAULTLINE_INSERT_DEDUP). `segment` (default): each
   * write-ahead segment inserts under a token fixed when it is sealed, so replays of it are stored
   * once; a client's retry of an export lands again (at least once). `request`: each export is a
   * segment of its own (one INSERT per export) under a token derived from its rows, so a retry of the same export, on this collector or
   * another one writing to the same ClickHouse, is stored once while it is within the tables'
   * deduplication window (the last 1,000 inserts). Costs one INSERT per export: batch exports large.
   */
  insertDedup?: 'segment' | 'request';
  /**
   * When `write` resolves. `wal` (default): once the rows are appended to a write-ahead segment in
   * `spoolDir` and fsync'd (one fsync shared by all concurrent writes); a background inserter then
   * INSERTs whole segments in order, so batches are no longer capped by the spans clients hold in
   * flight. Rows become queryable shortly after the ack: `settle()` waits for that. `insert`: once
   * the rows are inserted (or spooled because the insert failed), so they are queryable the moment
   * a request is acknowledged, at about half the throughput. Env `FAULTLINE_WRITER_ACK`.
   */
  ackAfter?: 'insert' | 'wal';
  /**
   * `wal` mode: bytes accepted but not yet inserted (sealed and open segments plus the group
   * waiting for its fsync) at most (default 256 MiB); beyond → SaturatedError.
   */
  maxWalBytes?: number;
  /** `wal` mode: how long `drain()` keeps inserting segments (default 20 000 ms); the rest replays at start. */
  drainTimeoutMs?: number;
  /** Seal a batch (`wal`: a segment) at this many spans (default 25 000; `wal` 50 000). */
  maxBatchSpans?: number;
  /** Seal a batch (`wal`: a segment) at this many serialized bytes (default 32 MiB; `wal` 48 MiB). */
  maxBatchBytes?: number;
  /**
   * Linger before a partial batch is sealed (default 200 ms). With adaptive batching, a batch whose
   * linger ends while every insert slot is busy keeps filling until an insert ends.
   */
  maxBatchDelayMs?: number;
  /**
   * Group commit (default true): while all `maxConcurrentInserts` slots are busy, the next batch
   * keeps filling instead of being sealed by the timer to wait in line. Each INSERT pays a fixed
   * cost (a part per table and materialized view), so fewer, larger inserts ingest more.
   * `false` restores plain size-or-time batching (kept for the benchmark's before/after figures).
   */
  adaptiveBatching?: boolean;
  /** Spans held in memory at most, buffered plus in flight (default 50 000); beyond → SaturatedError. */
  maxQueueSpans?: number;
  /**
   * Serialized bytes held in memory at most, buffered plus in flight (default 64 MiB); beyond →
   * SaturatedError. Bounds memory when spans are large, which a span count alone does not.
   */
  maxQueueBytes?: number;
  /**
   * Write-ahead log / spool directory. Env `FAULTLINE_SPOOL_DIR`; default `<dataDir>/wal` over an
   * embedded store, `./.faultline/spool` over a server. One writer per directory: the writer locks
   * it (see `close()`), and a second one, in this process or another, is refused naming the holder.
   */
  spoolDir?: string;
  /** Spool size on disk at most (default 1 GiB); beyond → SaturatedError. */
  maxSpoolBytes?: number;
  /** Retry-After seconds suggested when saturated (default 1). */
  retryAfterSeconds?: number;
  /** First replay retry delay after a failure, doubling to `maxRetryDelayMs` (default 250). */
  retryDelayMs?: number;
  /** Cap on replay retry delay (default 5 000). */
  maxRetryDelayMs?: number;
  /** Direct inserts running at once (default 2). Spool replay is always one at a time, in order. */
  maxConcurrentInserts?: number;
  /** Abort an insert after this many ms and spool its batch (default 30 000). */
  insertTimeoutMs?: number;
  /** Table to insert into (default `otel_traces`). */
  table?: string;
  /**
   * Extra ClickHouse settings for every INSERT, numbers only (e.g. `{ max_insert_threads: 1,
   * input_format_parallel_parsing: 0 }` to trade insert speed for engine memory). Default none.
   */
  insertSettings?: Record<string, number>;
}

/** Options for `SpanWriter.settle`. */
export interface SettleOptions {
  /** Reject after this many ms if ClickHouse is still behind (default 30 000). */
  timeoutMs?: number;
}

/**
 * The durable writer the receiver calls. `write` resolves once the rows are durable: inserted into
 * ClickHouse, or appended and fsync'd to the write-ahead log or spool. It rejects with `SaturatedError`
 * (`retryAfterSeconds`) when the bounded queue is full, so the receiver can answer 429/503.
 */
export interface SpanWriter {
  write(rows: TraceRow[]): Promise<void>;
  /** Flushes buffered rows and waits for in-flight inserts and spool replay; stops timers. Idempotent. */
  drain(): Promise<void>;
  /**
   * Resolves once every span acknowledged before the call is inserted (read-your-writes for tests,
   * dashboards and shutdown); the writer keeps serving. Rejects after `timeoutMs` while ClickHouse
   * is failing, naming the pending count and the last insert error (the spans stay durable on disk).
   */
  settle(options?: SettleOptions): Promise<void>;
  /**
   * Drains, then releases the lock on the spool directory so another writer may take it over;
   * later writes are refused. What stays on disk is replayed by the next writer. Idempotent.
   */
  close(): Promise<void>;
  stats(): WriterStats;
}
