import type { Envelope } from '../../types.js';
import { misroutes } from './misrouted-retry.js';

/** How long a failed attempt is remembered; a repeat later than this is a new decision. */
const TTL_MS = 10 * 60_000;
/** Bounded so a long-running service with many distinct calls cannot grow memory without limit. */
const MAX_ENTRIES = 2000;

/** The last failed attempt of one call in one request. */
export interface FailedAttempt {
  attempt: number;
  envelope: Envelope;
  /** When the failed span ended (performance.now() clock): only calls started after it repeat it. */
  endedAt: number;
  /** Date.now() when recorded, for the TTL. */
  at: number;
}

/**
 * Numbers identical repeats, per (correlation id, operation key): a repeat of a call that failed is
 * the next attempt, with that failure as its previous envelope; a success forgets the call, so a
 * repeat after it is attempt 1 again. Only failures are stored, so the common path (successes with
 * nothing remembered) costs one size check. The same memory answers misrouted retries: a repeat
 * after a failure that `misroutes`.
 */
export class AttemptTracker {
  /**
   * Per correlation id, then per operation: a call of a request with nothing on record (nearly
   * every call) is answered by one lookup of a string the span already holds, before any
   * operation key is built. Correlation ids are kept in recency order, for the bound.
   */
  private readonly byCorrelation = new Map<string, Map<string, FailedAttempt>>();
  private count = 0;

  /** Remembered failures; 0 lets callers skip building an operation key on every span. */
  get size(): number {
    return this.count;
  }

  /** Whether a failure of this request is on record: when not, no call of it repeats one. */
  has(correlationId: string): boolean {
    return this.byCorrelation.has(correlationId);
  }

  /** The failed attempt that a call started at `startedAt` repeats, if it had ended by then. */
  previous(correlationId: string, operation: string, startedAt: number): FailedAttempt | undefined {
    const hit = this.fresh(correlationId, operation);
    return hit !== undefined && hit.endedAt <= startedAt ? hit : undefined;
  }

  /** The call's last failure on record, however recent: a call starting now repeats it. */
  latest(correlationId: string, operation: string): FailedAttempt | undefined {
    return this.fresh(correlationId, operation);
  }

  /** The earlier envelope when repeating this call now would be a misrouted retry, else undefined. */
  lookup(correlationId: string, operation: string): Envelope | undefined {
    const hit = this.fresh(correlationId, operation);
    return hit !== undefined && misroutes(hit.envelope) ? hit.envelope : undefined;
  }

  failed(
    correlationId: string,
    operation: string,
    attempt: number,
    envelope: Envelope,
    endedAt: number,
  ): void {
    let calls = this.byCorrelation.get(correlationId);
    if (calls === undefined) calls = new Map();
    else {
      if (calls.delete(operation)) this.count--;
      this.byCorrelation.delete(correlationId);
    }
    calls.set(operation, { attempt, envelope, endedAt, at: Date.now() });
    this.count++;
    this.byCorrelation.set(correlationId, calls);
    while (this.count > MAX_ENTRIES) this.dropOldest();
  }

  /**
   * The request is over (its root span ended) and no later request can share its correlation id
   * (it is the trace id): its calls can repeat nothing any more, so they need not be remembered.
   */
  forgetRequest(correlationId: string): void {
    const calls = this.byCorrelation.get(correlationId);
    if (calls === undefined) return;
    this.count -= calls.size;
    this.byCorrelation.delete(correlationId);
  }

  /** The call succeeded: a repeat of it is a new call, attempt 1. */
  succeeded(correlationId: string, operation: string): void {
    const calls = this.byCorrelation.get(correlationId);
    if (calls !== undefined) this.forget(correlationId, calls, operation);
  }

  private fresh(correlationId: string, operation: string): FailedAttempt | undefined {
    const calls = this.byCorrelation.get(correlationId);
    const hit = calls?.get(operation);
    if (hit === undefined) return undefined;
    if (Date.now() - hit.at > TTL_MS) {
      this.forget(correlationId, calls as Map<string, FailedAttempt>, operation);
      return undefined;
    }
    return hit;
  }

  private forget(correlationId: string, calls: Map<string, FailedAttempt>, operation: string): void {
    if (!calls.delete(operation)) return;
    this.count--;
    if (calls.size === 0) this.byCorrelation.delete(correlationId);
  }

  /** The oldest call of the request least recently failed. */
  private dropOldest(): void {
    const first = this.byCorrelation.entries().next().value;
    if (first === undefined) return;
    const [correlationId, calls] = first;
    const operation = calls.keys().next().value;
    if (operation === undefined) this.byCorrelation.delete(correlationId);
    else this.forget(correlationId, calls, operation);
  }
}
