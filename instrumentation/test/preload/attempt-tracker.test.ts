import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttemptTracker } from '../../src/preload/pipeline/attempt-tracker.js';
import { operationKey } from '../../src/preload/pipeline/misrouted-retry.js';
import type { Envelope } from '../../src/types.js';

const envelope = (retryable: boolean, code = retryable ? '503' : '400'): Envelope => ({
  class: retryable ? 'transient' : 'validation',
  source: 'http',
  code,
  message: 'failed',
  retryable,
  retry_after: null,
  correlation_id: 'c1',
  raw: null,
});

describe('AttemptTracker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a later call with the failed attempt it repeats, per correlation id and operation', () => {
    const tracker = new AttemptTracker();
    tracker.failed('c1', 'http GET http://x/a', 1, envelope(true), 100);
    expect(tracker.previous('c1', 'http GET http://x/a', 101)).toMatchObject({ attempt: 1, endedAt: 100 });
    expect(tracker.previous('c2', 'http GET http://x/a', 101)).toBeUndefined();
    expect(tracker.previous('c1', 'http GET http://x/b', 101)).toBeUndefined();
    // Started before the failure ended: a concurrent call, not a repeat.
    expect(tracker.previous('c1', 'http GET http://x/a', 99)).toBeUndefined();
  });

  it('forgets a call once it succeeds', () => {
    const tracker = new AttemptTracker();
    tracker.failed('c1', 'op', 2, envelope(true), 100);
    tracker.succeeded('c1', 'op');
    expect(tracker.previous('c1', 'op', 200)).toBeUndefined();
    expect(tracker.size).toBe(0);
  });

  it('calls a repeat misrouted only after a non-retryable failure the caller did not stop', () => {
    const tracker = new AttemptTracker();
    tracker.failed('c1', 'a', 1, envelope(false), 1);
    tracker.failed('c1', 'b', 1, envelope(true), 1);
    tracker.failed('c1', 'c', 1, envelope(false, 'ABORT_ERR'), 1);
    expect(tracker.lookup('c1', 'a')?.code).toBe('400');
    expect(tracker.lookup('c1', 'b')).toBeUndefined();
    expect(tracker.lookup('c1', 'c')).toBeUndefined();
  });

  it('forgets a failure after ten minutes', () => {
    vi.useFakeTimers();
    const tracker = new AttemptTracker();
    tracker.failed('c1', 'op', 1, envelope(false), 1);
    vi.advanceTimersByTime(10 * 60_000 + 1);
    expect(tracker.lookup('c1', 'op')).toBeUndefined();
    expect(tracker.previous('c1', 'op', Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it('forgets every call of a request that is over, and only of that request', () => {
    const tracker = new AttemptTracker();
    tracker.failed('c1', 'a', 1, envelope(true), 1);
    tracker.failed('c1', 'b', 2, envelope(false), 1);
    tracker.failed('c2', 'a', 1, envelope(true), 1);
    tracker.forgetRequest('c1');
    expect(tracker.size).toBe(1);
    expect(tracker.has('c1')).toBe(false);
    expect(tracker.previous('c1', 'a', 2)).toBeUndefined();
    expect(tracker.previous('c2', 'a', 2)?.attempt).toBe(1);
    tracker.forgetRequest('c3');
    expect(tracker.size).toBe(1);
  });

  it('keeps at most 2000 calls, dropping the oldest', () => {
    const tracker = new AttemptTracker();
    for (let i = 0; i < 2001; i++) tracker.failed('c1', `op${i}`, 1, envelope(true), 1);
    expect(tracker.size).toBe(2000);
    expect(tracker.previous('c1', 'op0', 2)).toBeUndefined();
    expect(tracker.previous('c1', 'op2000', 2)?.attempt).toBe(1);
  });

  it('keys HTTP by method and URL, databases by system, namespace and statement or connect span', () => {
    expect(operationKey({ 'http.request.method': 'POST', 'url.full': 'http://x/pay' })).toBe(
      'http POST http://x/pay',
    );
    expect(operationKey({ 'db.system': 'postgresql', 'db.name': 'test', 'db.statement': 'SELECT 1' })).toBe(
      'db postgresql test SELECT 1',
    );
    expect(operationKey({ 'rpc.system': 'grpc', 'rpc.service': 'Pay', 'rpc.method': 'Charge' })).toBe(
      'rpc grpc Pay Charge',
    );
    expect(operationKey({ 'db.system.name': 'postgresql', 'db.namespace': 'test' }, 'pg-pool.connect')).toBe(
      'db postgresql test pg-pool.connect',
    );
    expect(operationKey({ 'db.system': 'redis' })).toBeUndefined();
    expect(operationKey({ 'db.system.name': 'postgresql' }, 'pg.query:SELECT test')).toBeUndefined();
  });
});
