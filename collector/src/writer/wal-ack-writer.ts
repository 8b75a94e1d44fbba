import type { DirectoryLock, Store, TraceRow } from '@faultline/sql';
import type { SettleOptions, SpanWriter, WriterStats } from '../types.js';
import { Admission } from './admission.js';
import { BodyPool } from './body-pool.js';
import { LatencyRecorder } from './latency-histogram.js';
import type { ResolvedWriterOptions } from './resolve-writer-options.js';
import { SegmentInserter } from './segment-inserter.js';
import { Spool } from './spool.js';
import { countReplayed, createTimedInsert, insertErrorOf, newWriterCounters } from './timed-insert.js';
import { DEFAULT_SETTLE_TIMEOUT_MS, waitUntilSettled } from './wait-until-settled.js';
import { recoverOpenSegments, WalSegment } from './wal-segment.js';

interface Group {
  chunks: Buffer[];
  /** Rows of each chunk (one chunk per write). */
  counts: number[];
  rows: number;
  bytes: number;
  waiters: { resolve(): void; reject(err: unknown): void }[];
}

const emptyGroup = (): Group => ({ chunks: [], counts: [], rows: 0, bytes: 0, waiters: [] });

/**
 * The `ackAfter: 'wal'` writer (the default): `write` resolves once its rows are in a write-ahead
 * segment and fdatasync'd, not after an INSERT. Acknowledging after an INSERT caps a batch at the
 * spans clients hold in flight, and every INSERT pays a large fixed cost (a part per table and
 * view); here concurrent writes form one group and share one fsync, and a single background
 * inserter (SegmentInserter) INSERTs sealed segments oldest-first, one segment per INSERT under
 * its own deduplication token, deleting a segment only after its insert succeeded, so a crash
 * anywhere inserts it exactly once. The open segment is sealed when it is full, or when the
 * inserter has nothing waiting and the segment is `maxBatchDelayMs` old: under load, batches grow
 * to what arrives during one insert. Memory holds only the group awaiting its fsync and the
 * segment being inserted; disk holds at most `maxWalBytes` not yet inserted, beyond which `write`
 * rejects with SaturatedError (see Admission). The caller (createSpanWriter) holds the
 * directory's lock; `close()` releases it.
 */
export function createWalAckWriter(store: Store, o: ResolvedWriterOptions, lock: DirectoryLock): SpanWriter {
  const spool = new Spool(o.spoolDir);
  // Each write's body is serialized into a reused buffer, given back once its group is appended.
  const pool = new BodyPool();
  const latency = new LatencyRecorder();
  const counters = newWriterCounters();
  let group = emptyGroup();
  // The group between leaving `group` and its fsync returning.
  let writing = { rows: 0, bytes: 0 };
  let active: WalSegment | undefined;
  // A segment between leaving `active` and joining the spool, so the accounting never drops it.
  let sealing = { rows: 0, bytes: 0, since: 0 };
  let pumping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let draining = false;
  // settle() callers waiting: the open segment is sealed at once instead of after its linger.
  let settling = 0;
  let outage = false;
  let lastInsertError: unknown;
  let lastInsertErrorAt = 0;
  let lastQuarantine: WriterStats['lastQuarantine'] = null;
  // Closed segments whose seal failed (a read-only or failing directory): acknowledged rows that
  // are in no live segment, so they are retried first and reported until they are sealed.
  const unsealed: WalSegment[] = [];
  let walError: { err: unknown; since: number } | undefined;
  // Segments a previous run left behind are inserted first: settle() counts them in its target.
  let recoveredRows = 0;

  const inserter = new SegmentInserter(
    spool,
    {
      insert: createTimedInsert(store, o, latency),
      onInserted(segment, quarantined, split) {
        lastQuarantine = countReplayed(counters, segment, quarantined, split) ?? lastQuarantine;
        if (outage) {
          outage = false;
          console.warn('[faultline] ClickHouse recovered; inserting the write-ahead log again');
        }
        // The inserter may now be idle: a lingering open segment can go.
        void pump();
      },
      onError(err, segment) {
        counters.insertErrors++;
        lastInsertError = err;
        lastInsertErrorAt = Date.now();
        if (!segment)
          console.error('[faultline] write-ahead log insert hit a local error; it will retry:', err);
        else if (!outage) {
          outage = true;
          console.warn(
            `[faultline] ClickHouse insert failed (${err instanceof Error ? err.message : String(err)}); accepted spans stay in ${o.spoolDir} until it recovers`,
          );
        }
      },
    },
    o,
  );

  // Segments a crash left open are sealed first, so they keep their place ahead of new ones.
  const ready = (async () => {
    await recoverOpenSegments(spool).catch((err: unknown) =>
      // Never fatal for new writes: the files stay on disk and the next start retries them.
      console.error(`[faultline] could not recover open write-ahead segments in ${o.spoolDir}:`, err),
    );
    recoveredRows = spool.rows;
    if (spool.peek()) void inserter.kick();
  })();

  const unsealedRows = () => unsealed.reduce((n, u) => n + u.rows, 0);
  const activeRows = () => (active?.rows ?? 0) + sealing.rows + unsealedRows();
  const activeBytes = () => (active?.bytes ?? 0) + sealing.bytes + unsealed.reduce((n, u) => n + u.bytes, 0);
  const unInsertedBytes = () => spool.bytes + activeBytes() + writing.bytes + group.bytes;
  /** The oldest acknowledged span not yet inserted: sealed segments, the one sealing, the open one. */
  function oldestPendingAt(): number | null {
    const times = [
      spool.oldestSince,
      sealing.rows > 0 ? sealing.since : null,
      active?.firstAckAt ?? null,
      ...unsealed.map((u) => u.firstAckAt),
    ];
    const known = times.filter((t): t is number => t !== null);
    return known.length > 0 ? Math.min(...known) : null;
  }

  // insertDedup 'request': each write is a segment of its own, sealed at once, so a request's rows
  // insert as one block under their content token whichever collector received them.
  const perRequest = o.insertDedup === 'request';

  function shouldSeal(): boolean {
    if (!active || active.rows === 0) return false;
    if (perRequest) return true;
    if (draining || settling > 0 || active.rows >= o.maxBatchSpans || active.bytes >= o.maxBatchBytes)
      return true;
    // Nothing sealed waits for the inserter: a segment old enough goes now rather than at full size.
    return !spool.peek() && Date.now() - active.openedAt >= o.maxBatchDelayMs;
  }

  /** The next group to append: all that waits, or (per-request segments) the first write alone. */
  function takeGroup(): Group {
    if (!perRequest || group.chunks.length <= 1) {
      const g = group;
      group = emptyGroup();
      return g;
    }
    const rows = group.counts[0]!;
    const chunk = group.chunks[0]!;
    const first: Group = {
      chunks: [chunk],
      counts: [rows],
      rows,
      bytes: chunk.length,
      waiters: [group.waiters[0]!],
    };
    group = {
      chunks: group.chunks.slice(1),
      counts: group.counts.slice(1),
      rows: group.rows - rows,
      bytes: group.bytes - chunk.length,
      waiters: group.waiters.slice(1),
    };
    return first;
  }

  async function appendGroup(): Promise<void> {
    const g = takeGroup();
    writing = { rows: g.rows, bytes: g.bytes };
    try {
      active ??= await WalSegment.create(spool, perRequest);
      await active.append(g.chunks, g.rows);
      counters.accepted += g.rows;
      counters.spooled += g.rows;
      for (const w of g.waiters) w.resolve();
    } catch (err) {
      const error = new Error(`spans could not be appended to the write-ahead log in ${o.spoolDir}`, {
        cause: err,
      });
      for (const w of g.waiters) w.reject(error);
    } finally {
      writing = { rows: 0, bytes: 0 };
      // Written (or refused): the file holds the bytes now, and nothing else reads these bodies.
      for (const chunk of g.chunks) pool.give(chunk);
    }
  }

  async function sealActive(): Promise<void> {
    const segment = active!;
    active = undefined;
    sealing = { rows: segment.rows, bytes: segment.bytes, since: segment.firstAckAt ?? segment.openedAt };
    try {
      await segment.seal();
      walHealed();
    } catch (err) {
      // Its rows are acknowledged: keep the segment and seal it again once the directory heals.
      unsealed.push(segment);
      walFailed(err);
      return;
    } finally {
      sealing = { rows: 0, bytes: 0, since: 0 };
    }
    void inserter.kick();
  }

  /** Seals segments an earlier seal left closed but unsealed, oldest first; false if one still fails. */
  async function sealLeftovers(): Promise<boolean> {
    while (unsealed.length > 0) {
      try {
        await unsealed[0]!.seal();
      } catch (err) {
        walFailed(err);
        return false;
      }
      unsealed.shift();
      void inserter.kick();
    }
    walHealed();
    return true;
  }

  function refuseGroup(): void {
    if (group.rows === 0) return;
    const g = group;
    group = emptyGroup();
    const error = new Error(
      `the write-ahead log in ${o.spoolDir} cannot seal its segment (${walError ? insertErrorOf(walError.err, 0).message : 'unknown error'}); nothing new is accepted until it is writable`,
    );
    for (const w of g.waiters) w.reject(error);
    for (const chunk of g.chunks) pool.give(chunk);
  }

  function walFailed(err: unknown): void {
    if (!walError) {
      console.error(
        `[faultline] the write-ahead log in ${o.spoolDir} cannot seal a segment of acknowledged spans; retrying until the directory is writable:`,
        err,
      );
    }
    walError = { err, since: walError?.since ?? Date.now() };
  }

  function walHealed(): void {
    if (!walError || unsealed.length > 0) return;
    walError = undefined;
    console.warn(`[faultline] the write-ahead log in ${o.spoolDir} is writable again`);
  }

  /** The one lane for file work (appends and seals never interleave); re-checks after each await. */
  function pump(): Promise<void> {
    pumping ??= (async () => {
      try {
        await ready;
        for (;;) {
          // Segments keep their order: a later one is not sealed ahead of one still unsealed.
          if (unsealed.length > 0 && !(await sealLeftovers())) {
            // No new segment can be made either: refuse what waits rather than hold it unanswered.
            refuseGroup();
            retrySoon();
            break;
          }
          // Sealing comes before the next append: under steady load a group is always waiting,
          // and an idle inserter must not wait for the open segment to fill up.
          if (shouldSeal()) await sealActive();
          else if (group.rows > 0) await appendGroup();
          else break;
        }
      } catch (err) {
        // A seal that failed leaves the file `.open`: the next start recovers it. Keep serving.
        console.error('[faultline] write-ahead log error:', err);
        // Writes already grouped still need an answer: try again shortly.
        retrySoon();
      } finally {
        pumping = undefined;
        armTimer();
      }
    })();
    return pumping;
  }

  function retrySoon(): void {
    setTimeout(() => void pump(), o.retryDelayMs).unref();
  }

  function armTimer(): void {
    if (timer || !active || active.rows === 0 || draining) return;
    // Once old enough, the segment waits for the inserter instead: onInserted pumps again.
    const wait = active.openedAt + o.maxBatchDelayMs - Date.now();
    if (wait <= 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void pump();
    }, wait);
  }

  // Memory holds only the group awaiting its fsync; the disk, what is accepted and not inserted.
  const admission = new Admission(
    o,
    counters,
    spool,
    {
      spoolName: 'write-ahead log',
      afterSerialize(bytes) {
        if (group.bytes + bytes > o.maxQueueBytes)
          return `${group.bytes} bytes wait for the disk (maxQueueBytes ${o.maxQueueBytes})`;
        const backlog = unInsertedBytes();
        if (backlog + bytes > o.maxWalBytes)
          return `${backlog} accepted bytes not yet inserted (maxWalBytes ${o.maxWalBytes})`;
        return undefined;
      },
    },
    pool,
  );

  async function drain(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    draining = true;
    const deadline = Date.now() + o.drainTimeoutMs;
    try {
      await ready;
      // Appends what is buffered and seals the open segment; loops until both are done.
      while (pumping || group.rows > 0 || activeRows() > 0) {
        await pump();
        if (!pumping && group.rows === 0 && activeRows() > 0 && !shouldSeal()) break;
      }
      await inserter.stop(deadline);
    } finally {
      draining = false;
    }
  }

  return {
    write(rows: TraceRow[]): Promise<void> {
      return admission.admit(
        rows,
        (body) =>
          new Promise<void>((resolve, reject) => {
            group.chunks.push(body);
            group.counts.push(rows.length);
            group.rows += rows.length;
            group.bytes += body.length;
            group.waiters.push({ resolve, reject });
            void pump();
          }),
      );
    },

    drain,

    close(): Promise<void> {
      return admission.close(drain, lock);
    },

    async settle(options: SettleOptions = {}): Promise<void> {
      await ready;
      const target = recoveredRows + counters.accepted;
      settling++;
      try {
        void pump();
        await waitUntilSettled(
          {
            done: () => counters.inserted + counters.quarantined >= target,
            pending: () => activeRows() + spool.rows,
            lastError: () => lastInsertError,
            spoolDir: o.spoolDir,
          },
          options.timeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS,
        );
      } finally {
        settling--;
      }
    },

    stats(): WriterStats {
      const waiting = group.rows + writing.rows + activeRows() + spool.rows;
      return {
        ...counters,
        // Accepted (or about to be) and not yet inserted: what the receiver's back-pressure watches.
        queueDepth: waiting,
        queueBytes: unInsertedBytes(),
        // Reported as a spool only while ClickHouse fails; otherwise the log is the normal path.
        spoolDepth: outage ? spool.rows + activeRows() : 0,
        spoolBytes: outage ? spool.bytes + activeBytes() : 0,
        pendingInsert: activeRows() + spool.rows,
        oldestPendingAt: oldestPendingAt(),
        lastInsertError:
          lastInsertError === undefined ? null : insertErrorOf(lastInsertError, lastInsertErrorAt),
        lastQuarantine,
        walError: walError
          ? {
              message: insertErrorOf(walError.err, walError.since).message,
              since: walError.since,
              spans: unsealedRows(),
            }
          : null,
        spoolDir: o.spoolDir,
        ackAfter: 'wal',
        insertLatency: latency.snapshot(),
      };
    },
  };
}
