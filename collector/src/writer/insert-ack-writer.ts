import { randomUUID } from 'node:crypto';
import type { DirectoryLock, Store, TraceRow } from '@faultline/sql';
import type { SettleOptions, SpanWriter, WriterStats } from '../types.js';
import { Admission } from './admission.js';
import { LatencyRecorder } from './latency-histogram.js';
import type { ResolvedWriterOptions } from './resolve-writer-options.js';
import { SegmentInserter } from './segment-inserter.js';
import { Spool } from './spool.js';
import { countReplayed, createTimedInsert, insertErrorOf, newWriterCounters } from './timed-insert.js';
import { DEFAULT_SETTLE_TIMEOUT_MS, waitUntilSettled } from './wait-until-settled.js';
import { recoverOpenSegments } from './wal-segment.js';

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

interface Batch {
  /** One serialized body per write, concatenated when the batch is inserted or spooled. */
  chunks: Buffer[];
  rows: number;
  /** The chunks' bytes, the unit the queue bounds. */
  bytes: number;
  waiters: Waiter[];
}

const emptyBatch = (): Batch => ({ chunks: [], rows: 0, bytes: 0, waiters: [] });

/** The batch's one body; concatenated at most once, however often it is retried. */
function bodyOf(batch: Batch): Buffer {
  if (batch.chunks.length > 1) batch.chunks = [Buffer.concat(batch.chunks, batch.bytes)];
  return batch.chunks[0] ?? Buffer.alloc(0);
}

/**
 * The `ackAfter: 'insert'` writer: `write` resolves once its batch is INSERTed, or, when
 * ClickHouse is unreachable or failing, appended to the fsync'd spool for the segment inserter to
 * insert later. Rows are batched by size and time, adaptively: every INSERT pays a fixed cost (a
 * new part in otel_traces and in each materialized view's table), so while every insert slot is
 * busy the next batch keeps growing (group commit) and is sealed the moment a slot frees, rather
 * than sealed small by the timer to wait in line. While the spool holds anything, new batches
 * queue behind it so inserts keep arrival order. Memory is bounded by `maxQueueSpans` and
 * `maxQueueBytes` (buffered + in flight) and disk by `maxSpoolBytes`; past any, `write` rejects
 * with SaturatedError (see Admission). The caller (createSpanWriter) holds the directory's lock;
 * `close()` releases it.
 */
export function createInsertAckWriter(
  store: Store,
  o: ResolvedWriterOptions,
  lock: DirectoryLock,
): SpanWriter {
  const spool = new Spool(o.spoolDir);
  const latency = new LatencyRecorder();
  const counters = newWriterCounters();
  const inFlight = new Set<Promise<void>>();
  let pending: Batch = emptyBatch();
  let memorySpans = 0;
  let memoryBytes = 0;
  // Batches sealed but not yet finished (waiting for a slot, inserting or spooling).
  let sealedBatches = 0;
  // The pending batch has waited its linger time and goes out as soon as a slot frees.
  let lingered = false;
  const slotFree = () => sealedBatches < o.maxConcurrentInserts;
  let timer: NodeJS.Timeout | undefined;
  let activeInserts = 0;
  const insertQueue: (() => void)[] = [];
  // Logged once per outage, not per failed batch.
  let outage = false;
  let lastInsertError: unknown;
  let lastInsertErrorAt = 0;
  let lastQuarantine: WriterStats['lastQuarantine'] = null;

  const insert = createTimedInsert(store, o, latency);

  const inserter = new SegmentInserter(
    spool,
    {
      insert,
      onInserted(segment, quarantined, split) {
        lastQuarantine = countReplayed(counters, segment, quarantined, split) ?? lastQuarantine;
        if (outage && !spool.busy) {
          outage = false;
          console.warn(
            `[faultline] ClickHouse recovered; spool replayed (${counters.replayed} spans so far)`,
          );
        }
      },
      onError(err, segment) {
        counters.insertErrors++;
        lastInsertError = err;
        lastInsertErrorAt = Date.now();
        if (!segment) console.error('[faultline] spool replay hit a local error; it will retry:', err);
      },
    },
    o,
  );

  async function toSpool(batch: Batch, token: string, cause?: unknown): Promise<void> {
    await spool.append(bodyOf(batch), batch.rows, token);
    if (!outage) {
      outage = true;
      const reason = cause instanceof Error ? cause.message : 'earlier batches are still spooled';
      console.warn(
        `[faultline] ClickHouse insert failed (${reason}); spooling accepted spans to ${o.spoolDir} until it recovers`,
      );
    }
    counters.spooled += batch.rows;
    void inserter.kick();
  }

  /** Bounds concurrent direct inserts; the segment inserter's are separate and serial. */
  async function withInsertSlot<T>(fn: () => Promise<T>): Promise<T> {
    if (activeInserts >= o.maxConcurrentInserts) await new Promise<void>((r) => insertQueue.push(r));
    activeInserts++;
    try {
      return await fn();
    } finally {
      activeInserts--;
      insertQueue.shift()?.();
    }
  }

  async function process(batch: Batch): Promise<void> {
    await recovered;
    // The token is fixed before the first attempt: if an insert lands but its answer is lost, the
    // spooled copy replays under the same token and ClickHouse drops it as a duplicate.
    const token = `fl-${randomUUID()}`;
    try {
      if (spool.busy || inserter.running) {
        await toSpool(batch, token);
      } else {
        try {
          await withInsertSlot(() => insert(bodyOf(batch), token));
          counters.inserted += batch.rows;
        } catch (err) {
          counters.insertErrors++;
          lastInsertError = err;
          lastInsertErrorAt = Date.now();
          await toSpool(batch, token, err);
        }
      }
      counters.accepted += batch.rows;
      for (const w of batch.waiters) w.resolve();
    } catch (err) {
      const error = new Error(`spans could not be inserted nor spooled to ${o.spoolDir}`, { cause: err });
      for (const w of batch.waiters) w.reject(error);
    } finally {
      memorySpans -= batch.rows;
      memoryBytes -= batch.bytes;
      sealedBatches--;
      // Group commit: what piled up while every slot was busy goes out now as one larger batch.
      if (o.adaptiveBatching && lingered) seal();
    }
  }

  function seal(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    lingered = false;
    if (pending.rows === 0) return;
    const batch = pending;
    pending = emptyBatch();
    sealedBatches++;
    const p = process(batch);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  /**
   * The linger timer seals a partial batch. Adaptive: only into a free insert slot; with every slot
   * busy the batch keeps filling and is sealed when an insert finishes, instead of queueing small.
   */
  function onTimer(): void {
    timer = undefined;
    if (!o.adaptiveBatching || slotFree()) seal();
    else lingered = true;
  }

  // A write-ahead segment left open by a crashed `wal`-mode writer is sealed first, so switching
  // modes never strands acknowledged spans; new batches wait for it to keep arrival order.
  const recovered = recoverOpenSegments(spool).then(
    () => {
      if (spool.peek()) void inserter.kick();
    },
    (err: unknown) => console.error(`[faultline] could not recover open segments in ${o.spoolDir}:`, err),
  );

  // Counted in memory: buffered and in flight, until the batch is inserted or spooled.
  const admission = new Admission(o, counters, spool, {
    spoolName: 'spool',
    beforeSerialize: (rows) =>
      memorySpans + rows > o.maxQueueSpans
        ? `${memorySpans} spans (maxQueueSpans ${o.maxQueueSpans}) queued in memory`
        : undefined,
    afterSerialize: (bytes) =>
      memoryBytes + bytes > o.maxQueueBytes
        ? `${memoryBytes} bytes (maxQueueBytes ${o.maxQueueBytes}) queued in memory`
        : undefined,
  });

  async function drain(): Promise<void> {
    await recovered;
    seal();
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    await inserter.stop();
  }

  return {
    write(rows: TraceRow[]): Promise<void> {
      return admission.admit(rows, (body) => {
        memorySpans += rows.length;
        memoryBytes += body.length;
        return new Promise<void>((resolve, reject) => {
          pending.chunks.push(body);
          pending.rows += rows.length;
          pending.bytes += body.length;
          pending.waiters.push({ resolve, reject });
          if (pending.rows >= o.maxBatchSpans || pending.bytes >= o.maxBatchBytes) seal();
          else timer ??= setTimeout(onTimer, o.maxBatchDelayMs);
        });
      });
    },

    drain,

    close(): Promise<void> {
      return admission.close(drain, lock);
    },

    async settle(options: SettleOptions = {}): Promise<void> {
      const startedAt = Date.now();
      const timeoutMs = options.timeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
      await recovered;
      // Here a write is acknowledged once inserted or spooled: what remains is the spool.
      seal();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await waitUntilSettled(
        {
          done: () => spool.rows === 0,
          pending: () => spool.rows,
          lastError: () => lastInsertError,
          spoolDir: o.spoolDir,
        },
        timeoutMs,
        startedAt,
      );
    },

    stats(): WriterStats {
      return {
        ...counters,
        queueDepth: memorySpans,
        queueBytes: memoryBytes,
        spoolDepth: spool.rows,
        spoolBytes: spool.bytes,
        pendingInsert: spool.rows,
        oldestPendingAt: spool.oldestSince,
        lastInsertError:
          lastInsertError === undefined ? null : insertErrorOf(lastInsertError, lastInsertErrorAt),
        lastQuarantine,
        walError: null,
        spoolDir: o.spoolDir,
        ackAfter: 'insert',
        insertLatency: latency.snapshot(),
      };
    },
  };
}
