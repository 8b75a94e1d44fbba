/** Open ancestors waiting at most; beyond this the oldest is forgotten (its span then drops). */
const MAX_ENTRIES = 4096;
/** A request's root normally ends within seconds; one still open after this is not waited for. */
const TTL_MS = 5 * 60_000;

export interface PendingAncestorsOptions {
  maxEntries?: number;
  ttlMs?: number;
  /** Monotonic milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * Span ids of local ancestors of a kept failure in an unsampled trace, noted when the failure ends
 * and taken when the ancestor ends (usually after its child), so it is exported as the failure's
 * path. Bounded both ways, because a long-lived server must not grow it: at most `maxEntries` ids
 * (the oldest goes first) and none older than `ttlMs`, so a trace whose root never ends (a stream,
 * a hung request, a span an instrumentation never closes) pins nothing for long. Forgetting one
 * only loses context: the failure itself is already exported.
 */
export class PendingAncestors {
  /** spanId → when noted; Map order is insertion order, so the oldest is first. */
  private readonly noted = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: PendingAncestorsOptions = {}) {
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.ttlMs = options.ttlMs ?? TTL_MS;
    this.now = options.now ?? performance.now.bind(performance);
  }

  /** Read first by every unsampled span that ends: zero means nothing to look up. */
  get size(): number {
    return this.noted.size;
  }

  /** `spanId` is a local ancestor of a kept failure that has not ended yet. */
  note(spanId: string): void {
    const now = this.now();
    this.expire(now);
    // Re-noted (a second failure under the same parent): moved to the back with a fresh time, so
    // the map stays ordered by time and expire() can stop at the first live entry.
    this.noted.delete(spanId);
    this.noted.set(spanId, now);
    if (this.noted.size > this.maxEntries) {
      const oldest = this.noted.keys().next().value;
      if (oldest !== undefined) this.noted.delete(oldest);
    }
  }

  /** Whether the ending span `spanId` is a pending ancestor; forgets it either way. */
  take(spanId: string): boolean {
    const now = this.now();
    this.expire(now);
    return this.noted.delete(spanId);
  }

  private expire(now: number): void {
    for (const [id, at] of this.noted) {
      if (now - at < this.ttlMs) return;
      this.noted.delete(id);
    }
  }
}
