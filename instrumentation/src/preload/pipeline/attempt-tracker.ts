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
  private readonly failures = new Map<string, FailedAttempt>();

  /** Remembered failures; 0 lets callers skip building an operation key on every span. */
  get size(): number {
    return this.failures.size;
  }

  /** The failed attempt that a call started at `startedAt` repeats, if it had ended by then. */
  previous(correlationId: string, operation: string, startedAt: number): FailedAttempt | undefined {
    const hit = this.fresh(`${correlationId}\u0000${operation}`);
    return hit !== undefined && hit.endedAt <= startedAt ? hit : undefined;
  }

  /** The call's last failure on record, however recent: a call starting now repeats it. */
  latest(correlationId: string, operation: string): FailedAttempt | undefined {
    return this.fresh(`${correlationId}\u0000${operation}`);
  }

  /** The earlier envelope when repeating this call now would be a misrouted retry, else undefined. */
  lookup(correlationId: string, operation: string): Envelope | undefined {
    const hit = this.fresh(`${correlationId}\u0000${operation}`);
    return hit !== undefined && misroutes(hit.envelope) ? hit.envelope : undefined;
  }

  failed(
    correlationId: string,
    operation: string,
    attempt: number,
    envelope: Envelope,
    endedAt: number,
  ): void {
    const key = `${correlationId}\u0000${operation}`;
    this.failures.delete(key);
    this.failures.set(key, { attempt, envelope, endedAt, at: Date.now() });
    if (this.failures.size > MAX_ENTRIES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /** The call succeeded: a repeat of it is a new call, attempt 1. */
  succeeded(correlationId: string, operation: string): void {
    this.failures.delete(`${correlationId}\u0000${operation}`);
  }

  private fresh(key: string): FailedAttempt | undefined {
    const hit = this.failures.get(key);
    if (hit === undefined) return undefined;
    if (Date.now() - hit.at > TTL_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return hit;
  }
}
