import { afterEach, describe, expect, it, vi } from 'vitest';
import { MisroutedRetryTracker, operationKey } from '../../src/preload/misrouted-retry.js';
import type { Envelope } from '../../src/types.js';

const envelope = (retryable: boolean): Envelope => ({
  class: retryable ? 'transient' : 'validation',
  source: 'http',
  code: retryable ? '503' : '400',
  message: 'failed',
  retryable,
  retry_after: null,
  correlation_id: 'c1',
  raw: null,
});

describe('MisroutedRetryTracker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('remembers only non-retryable failures, per correlation id and operation', () => {
    const tracker = new MisroutedRetryTracker();
    tracker.record('c1', 'http GET http://x/a', envelope(false));
    tracker.record('c1', 'http GET http://x/b', envelope(true));
    expect(tracker.lookup('c1', 'http GET http://x/a')?.code).toBe('400');
    expect(tracker.lookup('c2', 'http GET http://x/a')).toBeUndefined();
    expect(tracker.lookup('c1', 'http GET http://x/b')).toBeUndefined();
  });

  it('forgets a failure after ten minutes', () => {
    vi.useFakeTimers();
    const tracker = new MisroutedRetryTracker();
    tracker.record('c1', 'op', envelope(false));
    vi.advanceTimersByTime(10 * 60_000 + 1);
    expect(tracker.lookup('c1', 'op')).toBeUndefined();
  });

  it('keys HTTP by method and URL, databases by system, namespace and statement', () => {
    expect(operationKey({ 'http.request.method': 'POST', 'url.full': 'http://x/pay' })).toBe(
      'http POST http://x/pay',
    );
    expect(operationKey({ 'db.system': 'postgresql', 'db.name': 'test', 'db.statement': 'SELECT 1' })).toBe(
      'db postgresql test SELECT 1',
    );
    expect(operationKey({ 'rpc.system': 'grpc', 'rpc.service': 'Pay', 'rpc.method': 'Charge' })).toBe(
      'rpc grpc Pay Charge',
    );
    expect(operationKey({ 'db.system': 'redis' })).toBeUndefined();
  });
});
