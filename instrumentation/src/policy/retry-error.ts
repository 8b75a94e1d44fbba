import type { Envelope } from '../types.js';
import type { RetryDecision } from './retry-decision.js';

/** One failed attempt as withRetry saw it. */
export interface AttemptRecord {
  /** 1-based. */
  attempt: number;
  envelope: Envelope;
  decision: RetryDecision;
  /** What fn threw, when it threw. */
  error?: unknown;
  /** What fn returned, when it returned a failing Response-like. */
  response?: unknown;
}

/**
 * Thrown by withRetry when it stops on a thrown failure. The original error is `cause`; every
 * attempt's envelope and decision is in `attempts`, the last envelope in `envelope`.
 */
export class RetryError extends Error {
  override readonly name = 'RetryError';
  readonly envelope: Envelope;
  readonly attempts: readonly AttemptRecord[];
  readonly decision: RetryDecision;

  constructor(attempts: readonly AttemptRecord[], cause: unknown, message?: string) {
    const last = attempts[attempts.length - 1] as AttemptRecord;
    super(
      message ??
        `${last.envelope.class} ${last.envelope.code} after ${attempts.length} attempt${attempts.length === 1 ? '' : 's'} (${last.decision.action}): ${last.envelope.message}`,
      { cause },
    );
    this.envelope = last.envelope;
    this.attempts = attempts;
    this.decision = last.decision;
  }
}
