import type { Envelope } from '../types.js';

export interface RetryPolicyOptions {
  /** Total attempts including the first. Default 3. */
  maxAttempts?: number;
  /** First backoff ceiling in ms; doubles each attempt. Default 200. */
  baseDelayMs?: number;
  /** Cap on any single wait in ms, backoff or server-requested. Default 20 000. */
  maxDelayMs?: number;
  /**
   * Whether replaying the call is safe. A non-idempotent call is replayed only when the failure
   * proves the server did not act on it (rate limited, rejected credential, refused connection,
   * rolled-back transaction). Default true.
   */
  isIdempotent?: boolean;
  /** Source of randomness in [0, 1) for full jitter; inject for deterministic tests. */
  random?: () => number;
  /** Whether a credential refresh is available (withRetry: an onAuthRefresh callback was given). */
  canRefreshAuth?: boolean;
  /** Whether the one allowed refresh already happened. */
  authRefreshed?: boolean;
}

/** What to do next: the class's policy, or why the loop stops. */
export type RetryAction = 'wait' | 'back_off' | 'refresh_auth' | 'repair' | 'escalate' | 'replan' | 'give_up';

export interface RetryDecision {
  retry: boolean;
  /** Milliseconds to wait before the next attempt; 0 when not retrying. */
  delayMs: number;
  action: RetryAction;
  reason: string;
}

export const RETRY_DEFAULTS = Object.freeze({ maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 20_000 });

/**
 * Codes proving the server did not run the call, so even a non-idempotent one may be replayed:
 * connection never made, or the transaction rolled back (PostgreSQL serialization/deadlock).
 */
const NOT_EXECUTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '40001', '40P01']);

function stop(action: RetryAction, reason: string): RetryDecision {
  return { retry: false, delayMs: 0, action, reason };
}

function positiveInt(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    (min >= 1 && !Number.isInteger(value))
  ) {
    throw new TypeError(
      `retry policy: ${name} must be ${min >= 1 ? `an integer >= ${min}` : 'a finite number >= 0'}; got ${String(value)}`,
    );
  }
  return value;
}

/** Full-jitter exponential backoff: uniform in [0, min(cap, base · 2^(attempt-1))). */
export function backoffDelayMs(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  random: () => number,
): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  const r = random();
  return Math.floor(ceiling * (r >= 0 && r < 1 ? r : 0));
}

/**
 * The five policies as a pure function: given the envelope of attempt `attempt` (1-based),
 * whether and when to try again. validation → repair; authentication → one refresh, then
 * escalate; rate_limit → wait retry_after exactly, else jittered backoff; transient → capped
 * jittered backoff (retry_after honored); permanent → replan.
 */
export function retryDecision(
  envelope: Envelope,
  attempt: number,
  options: RetryPolicyOptions = {},
): RetryDecision {
  if (envelope === null || typeof envelope !== 'object' || typeof envelope.class !== 'string') {
    throw new TypeError(
      'retryDecision: expected an envelope (from classifyError/classifyHttpResponse) as the first argument',
    );
  }
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new TypeError(
      `retryDecision: attempt must be the 1-based number of the attempt that failed; got ${String(attempt)}`,
    );
  }
  const maxAttempts = positiveInt('maxAttempts', options.maxAttempts, RETRY_DEFAULTS.maxAttempts, 1);
  const baseDelayMs = positiveInt('baseDelayMs', options.baseDelayMs, RETRY_DEFAULTS.baseDelayMs, 0);
  const maxDelayMs = positiveInt('maxDelayMs', options.maxDelayMs, RETRY_DEFAULTS.maxDelayMs, 0);
  const random = options.random ?? Math.random;
  const budgetLeft = attempt < maxAttempts;

  switch (envelope.class) {
    case 'validation':
      return stop('repair', 'validation: fix the request instead of repeating it');
    case 'authentication':
      if (options.canRefreshAuth && !options.authRefreshed && budgetLeft) {
        return {
          retry: true,
          delayMs: 0,
          action: 'refresh_auth',
          reason: 'authentication: refresh the credential once, then replay',
        };
      }
      return stop(
        'escalate',
        options.authRefreshed
          ? 'authentication failed again after a refresh: escalate'
          : 'authentication: no refresh available, escalate',
      );
    case 'permanent':
      if (!envelope.retryable) return stop('replan', 'permanent: the call as constructed will not succeed');
      break;
  }
  if (!envelope.retryable)
    return stop('give_up', `${envelope.class} ${envelope.code}: the server said not to retry`);
  if (!budgetLeft) return stop('give_up', `attempt budget of ${maxAttempts} exhausted`);
  if (
    options.isIdempotent === false &&
    envelope.class !== 'rate_limit' &&
    !NOT_EXECUTED_CODES.has(envelope.code)
  ) {
    return stop('give_up', 'not idempotent: the failed call may have taken effect, so it is not replayed');
  }
  const after = envelope.retry_after;
  if (typeof after === 'number' && Number.isFinite(after) && after >= 0) {
    const delayMs = Math.ceil(after * 1000);
    if (delayMs > maxDelayMs) {
      return stop('give_up', `server asked to wait ${after}s, longer than maxDelayMs ${maxDelayMs}`);
    }
    return {
      retry: true,
      delayMs,
      action: 'wait',
      reason: `waiting retry_after ${after}s as the server asked`,
    };
  }
  return {
    retry: true,
    delayMs: backoffDelayMs(attempt, baseDelayMs, maxDelayMs, random),
    action: 'back_off',
    reason: `${envelope.class}: exponential backoff with full jitter`,
  };
}
