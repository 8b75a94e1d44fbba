import { classifyError } from '../error/classify-error.js';
import type { ClassifyContext, Envelope } from '../types.js';
import { runInAttempt } from './attempt-context.js';
import { classifyResult, discard, isResponseLike } from './classify-result.js';
import { RETRY_DEFAULTS, type RetryPolicyOptions, retryDecision } from './retry-decision.js';
import { type AttemptRecord, RetryError } from './retry-error.js';
import { sleep as defaultSleep } from './sleep.js';

export interface WithRetryOptions<T = unknown>
  extends Omit<RetryPolicyOptions, 'canRefreshAuth' | 'authRefreshed'> {
  /** Aborts the loop: during a wait, or before the next attempt. withRetry then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Called after every failed attempt with its envelope and the decision taken. */
  onAttempt?: (record: AttemptRecord) => void;
  /** Refreshes a credential; called at most once, on the first authentication failure. */
  onAuthRefresh?: (envelope: Envelope) => unknown;
  /** Context for the classifiers (source, system, correlationId). */
  classify?: ClassifyContext;
  /** Replaces the default classification of a returned value (Response-likes are classified by default). */
  classifyResult?: (result: T) => Envelope | null | Promise<Envelope | null>;
  /** Injected for tests; defaults to an abortable setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What each attempt receives. */
export interface AttemptContext {
  /** 1-based. */
  attempt: number;
  signal?: AbortSignal;
}

async function envelopeOfResult<T>(result: T, options: WithRetryOptions<T>): Promise<Envelope | null> {
  if (options.classifyResult) return options.classifyResult(result);
  return isResponseLike(result) ? classifyResult(result, options.classify) : null;
}

/**
 * Runs `fn` until it succeeds or the class's policy says stop. Thrown errors are classified
 * with classifyError, returned Response-likes with classifyHttpResponse. On a thrown failure it
 * rejects with a RetryError (original error as `cause`, every attempt's envelope in
 * `attempts`); on a failing Response it resolves with the last response, as fetch would. The
 * attempt number is visible to everything `fn` calls through currentAttempt().
 */
export async function withRetry<T>(
  fn: (ctx: AttemptContext) => T | Promise<T>,
  options: WithRetryOptions<T> = {},
): Promise<T> {
  if (typeof fn !== 'function') {
    throw new TypeError('withRetry: the first argument must be a function that performs one attempt');
  }
  const { signal, onAttempt, onAuthRefresh } = options;
  const sleep = options.sleep ?? defaultSleep;
  const maxAttempts = options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts;
  const attempts: AttemptRecord[] = [];
  let authRefreshed = false;

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    const previous = attempts[attempts.length - 1]?.envelope;
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = {
        value: await runInAttempt({ attempt, maxAttempts, previous }, () => fn({ attempt, signal })),
      };
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      outcome = { error };
    }

    let envelope: Envelope;
    if ('value' in outcome) {
      const found = await envelopeOfResult(outcome.value, options);
      if (found === null) return outcome.value;
      envelope = found;
    } else {
      envelope = classifyError(outcome.error, options.classify);
    }

    const decision = retryDecision(envelope, attempt, {
      ...options,
      canRefreshAuth: typeof onAuthRefresh === 'function',
      authRefreshed,
    });
    const record: AttemptRecord =
      'value' in outcome
        ? { attempt, envelope, decision, response: outcome.value }
        : { attempt, envelope, decision, error: outcome.error };
    attempts.push(record);
    onAttempt?.(record);

    if (!decision.retry) {
      if ('value' in outcome) return outcome.value;
      throw new RetryError(attempts, outcome.error);
    }
    if ('value' in outcome) await discard(outcome.value);
    if (decision.action === 'refresh_auth') {
      authRefreshed = true;
      try {
        await (onAuthRefresh as (e: Envelope) => unknown)(envelope);
      } catch (refreshError) {
        throw new RetryError(
          attempts,
          refreshError,
          `credential refresh failed after ${envelope.class} ${envelope.code}: ${String((refreshError as Error)?.message ?? refreshError)}`,
        );
      }
    }
    if (decision.delayMs > 0 || signal) await sleep(decision.delayMs, signal);
  }
}
