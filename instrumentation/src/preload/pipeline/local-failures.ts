/** Parents of failed spans that may still be open; beyond this the oldest mark is dropped. */
const MAX_ENTRIES = 4096;

/**
 * Span ids of local spans below which a span already failed (a child, or a grandchild through
 * spans that did not fail themselves). A failed span that finds its own id here when it ends is an
 * echo of that deeper failure: faultline.propagated. Marks are added only on failures and removed
 * when the marked span ends, so the map stays small; the bound covers parents that never end.
 */
export class LocalFailures {
  private readonly below = new Set<string>();

  get size(): number {
    return this.below.size;
  }

  /** A span under `parentSpanId` failed (or carries a failure up from further below). */
  note(parentSpanId: string): void {
    if (this.below.has(parentSpanId)) return;
    this.below.add(parentSpanId);
    if (this.below.size > MAX_ENTRIES) {
      const oldest = this.below.values().next().value;
      if (oldest !== undefined) this.below.delete(oldest);
    }
  }

  /** Whether a span below `spanId` failed; forgets the mark (the span is ending). */
  take(spanId: string): boolean {
    return this.below.delete(spanId);
  }
}
