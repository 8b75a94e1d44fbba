/**
 * Failed sign-ins (and wrong bearer tokens) per client address: after `maxFailures` within
 * `windowMs` that address is told to wait until the window ends. Sessions already signed in are
 * not affected. Bounded: past `maxTracked` addresses the oldest records go.
 */
export function createLoginThrottle({
  maxFailures = 10,
  windowMs = 5 * 60_000,
  maxTracked = 10_000,
  now = Date.now,
} = {}) {
  const failures = new Map(); // address → { count, resetAt }

  function current(address) {
    const f = failures.get(address);
    if (f !== undefined && f.resetAt <= now()) {
      failures.delete(address);
      return undefined;
    }
    return f;
  }

  return {
    /** Seconds this address must wait before another attempt; 0 when it may try. */
    retryAfterS(address) {
      const f = current(address);
      return f !== undefined && f.count >= maxFailures
        ? Math.max(1, Math.ceil((f.resetAt - now()) / 1000))
        : 0;
    },
    failed(address) {
      const f = current(address);
      if (f !== undefined) f.count += 1;
      else {
        if (failures.size >= maxTracked) failures.delete(failures.keys().next().value);
        failures.set(address, { count: 1, resetAt: now() + windowMs });
      }
    },
    succeeded(address) {
      failures.delete(address);
    },
  };
}
