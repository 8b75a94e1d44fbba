/** What a pool keeps for reuse at most, in bytes of idle buffers. */
export const BODY_POOL_MAX_FREE_BYTES = 32 * 1024 * 1024;
/** Bodies larger than this are allocated fresh and never pooled. */
export const BODY_POOL_MAX_BODY_BYTES = 8 * 1024 * 1024;
const MIN_CAPACITY = 64 * 1024;

/**
 * Reused buffers for serialized request bodies. A fresh buffer of a request's size (hundreds of
 * KiB) costs its pages' first-touch faults on every request, more than writing the JSON into it
 * (`npm run bench -- ingest`, 2026-12-03: serialize only 170,253 spans per CPU-second into a
 * fresh buffer, 387,647 into a reused one). A body is handed out by `take` and must come back through `give` only once nothing reads
 * it any more (its write-ahead append has settled); a buffer the pool did not hand out, or one
 * already returned, is ignored by `give`. Idle buffers are capped at `maxFreeBytes`, so the pool
 * holds at most that much after a burst.
 */
export class BodyPool {
  readonly #free: Buffer[] = [];
  /** The backing stores this pool made, so `give` can tell its own views from any other buffer. */
  readonly #made = new WeakSet<ArrayBufferLike>();
  /** Backing stores that sit idle in #free: a second `give` of the same body is ignored. */
  readonly #idle = new WeakSet<ArrayBufferLike>();
  #freeBytes = 0;

  constructor(
    private readonly maxFreeBytes = BODY_POOL_MAX_FREE_BYTES,
    private readonly maxBodyBytes = BODY_POOL_MAX_BODY_BYTES,
  ) {}

  /** Idle bytes held for reuse right now. */
  get freeBytes(): number {
    return this.#freeBytes;
  }

  /** A buffer of exactly `size` bytes, contents undefined. */
  take(size: number): Buffer {
    if (size > this.maxBodyBytes) return Buffer.allocUnsafeSlow(size);
    let best = -1;
    for (let i = 0; i < this.#free.length; i++) {
      const cap = this.#free[i]!.length;
      if (cap >= size && (best < 0 || cap < this.#free[best]!.length)) best = i;
    }
    if (best >= 0) {
      const whole = this.#free[best]!;
      this.#free[best] = this.#free[this.#free.length - 1]!;
      this.#free.pop();
      this.#freeBytes -= whole.length;
      this.#idle.delete(whole.buffer);
      return whole.subarray(0, size);
    }
    // Powers of two, so bodies of nearby sizes reuse each other's buffers.
    let capacity = MIN_CAPACITY;
    while (capacity < size) capacity *= 2;
    // allocUnsafeSlow: a backing store of its own, never a slice of Node's shared small-buffer pool.
    const whole = Buffer.allocUnsafeSlow(Math.min(capacity, this.maxBodyBytes));
    this.#made.add(whole.buffer);
    return whole.subarray(0, size);
  }

  /** Returns a body from `take` for reuse; the caller must not read it afterwards. */
  give(body: Buffer): void {
    const store = body.buffer;
    if (!this.#made.has(store) || this.#idle.has(store)) return;
    if (this.#freeBytes + store.byteLength > this.maxFreeBytes) return;
    this.#idle.add(store);
    this.#free.push(Buffer.from(store, 0, store.byteLength));
    this.#freeBytes += store.byteLength;
  }
}
