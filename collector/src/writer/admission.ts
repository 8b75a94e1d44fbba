import type { DirectoryLock, TraceRow } from '@faultline/sql';
import { serializeRowsToBuffer } from '@faultline/sql';
import type { BodyPool } from './body-pool.js';
import type { ResolvedWriterOptions } from './resolve-writer-options.js';
import { SaturatedError } from './saturated-error.js';
import type { Spool } from './spool.js';
import type { WriterCounters } from './timed-insert.js';

/**
 * What one writer mode bounds beyond what every writer does. Each check returns the words of its
 * refusal (what is held, and the bound by name) or undefined to let the write through.
 */
export interface AdmissionBounds {
  /** How the refusal names the spool directory: `spool` (insert mode) or `write-ahead log`. */
  spoolName: string;
  /** Checked before serializing, with the rows of this write: bounds that need no bytes. */
  beforeSerialize?(rows: number): string | undefined;
  /** Checked once the serialized size is known (the body is garbage right away if refused). */
  afterSerialize(bytes: number): string | undefined;
}

/**
 * The door both writer modes share: a closed writer refuses, and a write past any bound is refused
 * with SaturatedError (counted in `rejected`) so the receiver answers 429/503 with Retry-After
 * instead of buffering more. The checks run in one order — closed, the mode's pre-serialize
 * bounds, the spool's disk bound, then the mode's byte bounds — which is the order of the messages
 * a write that exceeds several bounds sees. Admission itself holds nothing: the mode's
 * `enqueue` does, synchronously, so no other write is admitted between a check and its effect.
 */
export class Admission {
  #closed: Promise<void> | undefined;

  constructor(
    private readonly o: ResolvedWriterOptions,
    private readonly counters: WriterCounters,
    private readonly spool: Spool,
    private readonly bounds: AdmissionBounds,
    /** Where bodies are serialized into; the mode gives each back once it is written. */
    private readonly pool?: BodyPool,
  ) {
    this.#allocate = pool ? (size) => pool.take(size) : Buffer.allocUnsafe;
  }

  /** Where a body is serialized into: the pool's, made once rather than per write. */
  readonly #allocate: (size: number) => Buffer;

  /** Admits `rows` and hands their serialized body to `enqueue`, or rejects with the reason. */
  admit(rows: TraceRow[], enqueue: (body: Buffer) => Promise<void>): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    if (this.#closed) return Promise.reject(new Error(`the span writer on ${this.o.spoolDir} is closed`));
    const early = this.bounds.beforeSerialize?.(rows.length);
    if (early !== undefined) return this.#refuse(rows.length, early, this.o.retryAfterSeconds);
    if (this.spool.bytes >= this.o.maxSpoolBytes) {
      // The disk drains only as fast as ClickHouse catches up: clients wait longer for it.
      return this.#refuse(
        rows.length,
        `the ${this.bounds.spoolName} holds ${this.spool.bytes} bytes (maxSpoolBytes ${this.o.maxSpoolBytes}) while ClickHouse catches up`,
        this.o.retryAfterSeconds * 5,
      );
    }
    let body: Buffer;
    try {
      body = serializeRowsToBuffer(rows, this.#allocate);
    } catch (err) {
      return Promise.reject(err);
    }
    const late = this.bounds.afterSerialize(body.length);
    if (late !== undefined) {
      this.pool?.give(body);
      return this.#refuse(rows.length, late, this.o.retryAfterSeconds);
    }
    return enqueue(body);
  }

  /** Refuses every later write, then drains and releases the directory's lock, once. */
  close(drain: () => Promise<void>, lock: DirectoryLock): Promise<void> {
    this.#closed ??= drain().finally(() => lock.release());
    return this.#closed;
  }

  #refuse(rows: number, what: string, retryAfterSeconds: number): Promise<void> {
    this.counters.rejected += rows;
    return Promise.reject(
      new SaturatedError(
        `collector saturated: ${what}; retry after ${retryAfterSeconds}s`,
        retryAfterSeconds,
      ),
    );
  }
}
