import { insertIsolatingRows } from './row-isolation.js';
import type { QuarantinedRows, Spool, SpoolSegment } from './spool.js';

export interface SegmentInserterHooks {
  /** Inserts one spooled body (or a part of it) under a deduplication token. */
  insert(body: Buffer, token: string): Promise<void>;
  /**
   * The segment is stored; `split` when ClickHouse refused it whole for some of its rows, and
   * `quarantined` names the rows it refused on their own, if any.
   */
  onInserted(segment: SpoolSegment, quarantined: QuarantinedRows | null, split: boolean): void;
  onError(err: unknown, segment: SpoolSegment | undefined): void;
}

export interface SegmentInserterOptions {
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

/**
 * The one background inserter of both writer modes: it INSERTs the spool's sealed segments
 * (write-ahead segments in `wal` mode, spooled batches in `insert` mode) oldest-first, one at a
 * time, each under the deduplication token it was sealed with, and deletes each only after its
 * insert succeeded: rows reach ClickHouse in the order they were accepted, and a crash anywhere
 * inserts them once. A segment ClickHouse refuses for its rows is split until only the refused
 * rows remain; those go to `rejected/` with the reason and the rest land (insertIsolatingRows).
 * Every other failure (the server away, a full or read-only disk, memory pressure) is retried
 * with capped exponential backoff for as long as it takes: nothing acknowledged is set aside
 * because the store was unwell.
 */
export class SegmentInserter {
  #running: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #stopping = false;
  #deadline = Number.POSITIVE_INFINITY;

  constructor(
    private readonly spool: Spool,
    private readonly hooks: SegmentInserterHooks,
    private readonly options: SegmentInserterOptions,
  ) {}

  get running(): boolean {
    return this.#running !== undefined;
  }

  /** Starts the loop if it is not running; returns the running loop. */
  kick(): Promise<void> {
    if (this.#running) return this.#running;
    let crashed = false;
    this.#running = this.#loop()
      // The loop handles insert failures itself; anything else (a disk error) must not become an
      // unhandled rejection in the host process. The segments stay on disk for a later attempt.
      .catch((err: unknown) => {
        crashed = true;
        this.hooks.onError(err, undefined);
      })
      .finally(() => {
        this.#running = undefined;
        if (!this.spool.peek() || this.#stopping) return;
        // A segment may have landed between the loop's last look and now (its own kick() found
        // the loop still running), or the loop crashed: pick it up, after a pause if it crashed.
        if (crashed) setTimeout(() => void this.kick(), this.options.maxRetryDelayMs).unref();
        else void this.kick();
      });
    return this.#running;
  }

  /**
   * Makes one more attempt now, then returns when the spool is empty or the attempt failed: on
   * shutdown the spool is already durable and is inserted at the next start.
   */
  async stop(deadline = Number.POSITIVE_INFINITY): Promise<void> {
    this.#stopping = true;
    this.#deadline = deadline;
    this.#wake?.();
    let timer: NodeJS.Timeout | undefined;
    try {
      const loop = this.spool.peek() && Date.now() < deadline ? this.kick() : this.#running;
      // An insert still running at the deadline is left to finish or not: its segment stays on
      // disk, and a retry under the same token is a no-op if it did land.
      const expired = new Promise<void>((resolve) => {
        if (Number.isFinite(deadline)) timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      await Promise.race([loop, expired]);
    } finally {
      clearTimeout(timer);
      this.#stopping = false;
      this.#deadline = Number.POSITIVE_INFINITY;
    }
  }

  async #loop(): Promise<void> {
    let delay = this.options.retryDelayMs;
    for (let segment = this.spool.peek(); segment; segment = this.spool.peek()) {
      // Past a drain deadline no new insert starts; what remains is durable and is inserted at start.
      if (this.#stopping && Date.now() >= this.#deadline) return;
      try {
        const body = await this.spool.read(segment).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return undefined;
          throw err;
        });
        if (body === undefined) {
          // Another writer on this directory inserted it already (dedup made that harmless).
          await this.spool.remove(segment);
          continue;
        }
        const { rejected, split } = await insertIsolatingRows(this.hooks.insert, body, segment.token);
        // Kept before the segment goes: a crash between the two re-splits under the same tokens.
        const quarantined = rejected.length > 0 ? await this.spool.quarantineRows(segment, rejected) : null;
        await this.spool.remove(segment);
        this.hooks.onInserted(segment, quarantined, split);
        delay = this.options.retryDelayMs;
        continue;
      } catch (err) {
        this.hooks.onError(err, segment);
      }
      if (this.#stopping) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
      delay = Math.min(delay * 2, this.options.maxRetryDelayMs);
    }
  }
}
