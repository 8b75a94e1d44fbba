import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentAttempt } from '../../src/policy/attempt-context.js';
import type { AttemptRecord } from '../../src/policy/retry-error.js';
import { RetryError } from '../../src/policy/retry-error.js';
import { withRetry } from '../../src/policy/with-retry.js';

/** Records requested waits instead of waiting, so the loop runs deterministically. */
function fakeSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

const response = (status: number, headers: Record<string, string> = {}, body = ''): Response =>
  new Response(status === 204 ? null : body, { status, headers });

/** An ECONNREFUSED as Node's net module builds it. */
function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
    errno: -111,
    code: 'ECONNREFUSED',
    syscall: 'connect',
    address: '127.0.0.1',
    port: 9,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('withRetry', () => {
  it('returns the first success without waiting', async () => {
    const { sleep, waits } = fakeSleep();
    expect(await withRetry(() => 'ok', { sleep })).toBe('ok');
    expect(waits).toEqual([]);
  });

  it('retries a thrown transient error with jittered backoff, reporting every attempt', async () => {
    const { sleep, waits } = fakeSleep();
    const seen: AttemptRecord[] = [];
    let calls = 0;
    const result = await withRetry(
      () => {
        calls++;
        if (calls < 3) throw refused();
        return 'connected';
      },
      { sleep, random: () => 0.5, baseDelayMs: 100, onAttempt: (r) => seen.push(r) },
    );
    expect(result).toBe('connected');
    expect(waits).toEqual([50, 100]);
    expect(seen.map((r) => [r.attempt, r.envelope.class, r.envelope.code, r.decision.action])).toEqual([
      [1, 'transient', 'ECONNREFUSED', 'back_off'],
      [2, 'transient', 'ECONNREFUSED', 'back_off'],
    ]);
  });

  it('throws a RetryError carrying the cause and every envelope once the budget is spent', async () => {
    const { sleep } = fakeSleep();
    const err = await withRetry(
      () => {
        throw refused();
      },
      { sleep, maxAttempts: 3 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryError);
    const retryError = err as RetryError;
    expect(retryError.attempts).toHaveLength(3);
    expect(retryError.envelope).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
    expect(retryError.decision.action).toBe('give_up');
    expect((retryError.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('classifies a returned Response: waits Retry-After exactly, then returns the success', async () => {
    const { sleep, waits } = fakeSleep();
    const answers = [response(429, { 'retry-after': '2' }), response(200, {}, 'done')];
    const res = await withRetry(async () => answers.shift() as Response, { sleep });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('done');
    expect(waits).toEqual([2000]);
  });

  it('reads a failing Response body to find an exhausted quota, and does not retry it', async () => {
    const { sleep, waits } = fakeSleep();
    const seen: AttemptRecord[] = [];
    const body = JSON.stringify({
      error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' },
    });
    const res = await withRetry(async () => response(429, { 'content-type': 'application/json' }, body), {
      sleep,
      onAttempt: (r) => seen.push(r),
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: { code: 'insufficient_quota' } });
    expect(waits).toEqual([]);
    expect(seen[0]?.envelope).toMatchObject({
      class: 'permanent',
      code: 'insufficient_quota',
      retryable: false,
    });
  });

  it('never retries validation or permanent failures', async () => {
    const { sleep } = fakeSleep();
    let calls = 0;
    const res = await withRetry(
      async () => {
        calls++;
        return response(422, { 'content-type': 'application/json' }, '{"message":"postcode is invalid"}');
      },
      { sleep },
    );
    expect(res.status).toBe(422);
    expect(calls).toBe(1);
  });

  it('calls onAuthRefresh at most once, then escalates', async () => {
    const { sleep } = fakeSleep();
    const refresh = vi.fn(async () => undefined);
    let calls = 0;
    const seen: AttemptRecord[] = [];
    const res = await withRetry(
      async () => {
        calls++;
        return response(401);
      },
      { sleep, onAuthRefresh: refresh, maxAttempts: 5, onAttempt: (r) => seen.push(r) },
    );
    expect(res.status).toBe(401);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls).toBe(2);
    expect(seen.map((r) => r.decision.action)).toEqual(['refresh_auth', 'escalate']);
  });

  it('succeeds after one refresh', async () => {
    const { sleep } = fakeSleep();
    let token = 'old';
    const res = await withRetry(async () => (token === 'old' ? response(401) : response(200)), {
      sleep,
      onAuthRefresh: () => {
        token = 'new';
      },
    });
    expect(res.status).toBe(200);
  });

  it('does not replay a non-idempotent call after a 503, but does after a 429', async () => {
    const { sleep } = fakeSleep();
    let calls = 0;
    await withRetry(
      async () => {
        calls++;
        return response(503);
      },
      { sleep, isIdempotent: false },
    );
    expect(calls).toBe(1);

    const answers = [response(429), response(201)];
    const res = await withRetry(async () => answers.shift() as Response, {
      sleep,
      isIdempotent: false,
      random: () => 0,
    });
    expect(res.status).toBe(201);
  });

  it('exposes the attempt number to everything the attempt calls', async () => {
    const { sleep } = fakeSleep();
    const observed: Array<number | undefined> = [];
    await withRetry(
      async ({ attempt }) => {
        await Promise.resolve();
        observed.push(currentAttempt());
        if (attempt < 3) throw refused();
      },
      { sleep },
    );
    expect(observed).toEqual([1, 2, 3]);
    expect(currentAttempt()).toBeUndefined();
  });

  it('stops waiting as soon as the signal aborts, rejecting with its reason', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const pending = withRetry(
      () => {
        throw refused();
      },
      { signal: controller.signal, baseDelayMs: 10_000, random: () => 0.99, maxAttempts: 5 },
    );
    const outcome = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new Error('caller gave up'));
    expect(((await outcome) as Error).message).toBe('caller gave up');
  });

  it('waits with real timers when no sleep is injected (fake clock)', async () => {
    vi.useFakeTimers();
    const answers = [response(503, { 'retry-after': '3' }), response(200)];
    const pending = withRetry(async () => answers.shift() as Response);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(2_900);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).toBe(true);
    expect((await pending).status).toBe(200);
  });

  it('explains a missing function', async () => {
    await expect(withRetry(undefined as never)).rejects.toThrow(/first argument must be a function/);
  });
});
