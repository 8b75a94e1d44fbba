import { describe, expect, it } from 'vitest';
import { createEnvelope } from '../../src/envelope/create-envelope.js';
import { backoffDelayMs, retryDecision } from '../../src/policy/retry-decision.js';
import type { ErrorClass } from '../../src/types.js';

const env = (
  cls: ErrorClass,
  extra: { retryAfter?: number | null; retryable?: boolean; code?: string } = {},
) => createEnvelope({ class: cls, source: 'http', code: extra.code ?? 'x', message: 'm', ...extra });
const half = (): number => 0.5;

describe('retryDecision: one policy per class', () => {
  it('validation → repair, never retried', () => {
    expect(retryDecision(env('validation'), 1)).toMatchObject({ retry: false, action: 'repair' });
  });

  it('permanent → replan, never retried', () => {
    expect(retryDecision(env('permanent'), 1)).toMatchObject({ retry: false, action: 'replan' });
  });

  it('authentication → one refresh when available, then escalate', () => {
    expect(retryDecision(env('authentication'), 1)).toMatchObject({ retry: false, action: 'escalate' });
    expect(retryDecision(env('authentication'), 1, { canRefreshAuth: true })).toMatchObject({
      retry: true,
      action: 'refresh_auth',
      delayMs: 0,
    });
    expect(
      retryDecision(env('authentication'), 2, { canRefreshAuth: true, authRefreshed: true }),
    ).toMatchObject({
      retry: false,
      action: 'escalate',
    });
  });

  it('rate_limit → waits retry_after exactly', () => {
    expect(retryDecision(env('rate_limit', { retryAfter: 12 }), 1, { random: half })).toMatchObject({
      retry: true,
      action: 'wait',
      delayMs: 12_000,
    });
    expect(retryDecision(env('rate_limit', { retryAfter: 0.25 }), 1)).toMatchObject({ delayMs: 250 });
  });

  it('rate_limit without retry_after → full-jitter backoff', () => {
    expect(retryDecision(env('rate_limit'), 1, { random: half, baseDelayMs: 100 })).toMatchObject({
      retry: true,
      action: 'back_off',
      delayMs: 50,
    });
  });

  it('transient → exponential backoff with full jitter and a cap', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 10 };
    expect(retryDecision(env('transient'), 1, { ...opts, random: () => 0.999 }).delayMs).toBe(99);
    expect(retryDecision(env('transient'), 3, { ...opts, random: () => 0.999 }).delayMs).toBe(399);
    expect(retryDecision(env('transient'), 8, { ...opts, random: () => 0.999 }).delayMs).toBe(999);
    expect(retryDecision(env('transient'), 3, { ...opts, random: () => 0 }).delayMs).toBe(0);
  });

  it('transient with retry_after 0 (deadlock victim) → immediate retry', () => {
    expect(retryDecision(env('transient', { retryAfter: 0 }), 1)).toMatchObject({
      retry: true,
      action: 'wait',
      delayMs: 0,
    });
  });

  it('a server-requested wait longer than maxDelayMs stops instead of retrying early', () => {
    expect(retryDecision(env('rate_limit', { retryAfter: 600 }), 1, { maxDelayMs: 30_000 })).toMatchObject({
      retry: false,
      action: 'give_up',
    });
  });

  it('a retryable class the server marked not retryable stops', () => {
    expect(retryDecision(env('transient', { retryable: false }), 1)).toMatchObject({
      retry: false,
      action: 'give_up',
    });
  });

  it('a permanent status the server marked retryable is retried', () => {
    expect(retryDecision(env('permanent', { retryable: true }), 1, { random: half })).toMatchObject({
      retry: true,
    });
  });
});

describe('retryDecision: budget and idempotency', () => {
  it('stops when the attempt budget is spent', () => {
    expect(retryDecision(env('transient'), 2, { maxAttempts: 3 }).retry).toBe(true);
    expect(retryDecision(env('transient'), 3, { maxAttempts: 3 })).toMatchObject({
      retry: false,
      action: 'give_up',
    });
    expect(retryDecision(env('transient'), 1, { maxAttempts: 1 }).retry).toBe(false);
  });

  it('does not replay a non-idempotent call unless the failure proves it did not run', () => {
    expect(retryDecision(env('transient', { code: '503' }), 1, { isIdempotent: false })).toMatchObject({
      retry: false,
      action: 'give_up',
    });
    expect(retryDecision(env('rate_limit'), 1, { isIdempotent: false }).retry).toBe(true);
    expect(retryDecision(env('transient', { code: 'ECONNREFUSED' }), 1, { isIdempotent: false }).retry).toBe(
      true,
    );
    expect(
      retryDecision(env('transient', { code: '40001', retryAfter: 0 }), 1, { isIdempotent: false }).retry,
    ).toBe(true);
  });

  it('explains bad arguments', () => {
    expect(() => retryDecision(env('transient'), 0)).toThrow(/attempt must be the 1-based number/);
    expect(() => retryDecision(env('transient'), 1, { maxAttempts: 0 })).toThrow(
      /maxAttempts must be an integer >= 1/,
    );
    expect(() => retryDecision(null as never, 1)).toThrow(/expected an envelope/);
  });
});

describe('backoffDelayMs', () => {
  it('stays within [0, min(cap, base·2^(n-1)))', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      for (const r of [0, 0.3, 0.999999]) {
        const d = backoffDelayMs(attempt, 200, 5000, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.min(5000, 200 * 2 ** (attempt - 1)));
      }
    }
  });
});
