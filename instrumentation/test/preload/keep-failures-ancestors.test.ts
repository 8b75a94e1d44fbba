import { describe, expect, it } from 'vitest';
import { PendingAncestors } from '../../src/preload/sdk/keep-failures-ancestors.js';

/** The bounded set of ancestors a kept failure of an unsampled trace waits for (issue 29). */
describe('PendingAncestors', () => {
  const clock = () => {
    const c = { ms: 0, now: () => c.ms };
    return c;
  };

  it('answers once for a noted ancestor, and never for another span', () => {
    const ancestors = new PendingAncestors();
    ancestors.note('parent');
    expect(ancestors.size).toBe(1);
    expect(ancestors.take('other')).toBe(false);
    expect(ancestors.take('parent')).toBe(true);
    expect(ancestors.take('parent')).toBe(false);
    expect(ancestors.size).toBe(0);
  });

  it('holds at most maxEntries ids, forgetting the oldest first', () => {
    const ancestors = new PendingAncestors({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) ancestors.note(id);
    expect(ancestors.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => ancestors.take(id))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('a re-noted id counts as new, so it outlives ids noted between', () => {
    const ancestors = new PendingAncestors({ maxEntries: 2 });
    ancestors.note('a');
    ancestors.note('b');
    ancestors.note('a');
    ancestors.note('c');
    expect([ancestors.take('a'), ancestors.take('b'), ancestors.take('c')]).toEqual([true, false, true]);
  });

  it('expires ids older than ttlMs on the next note or take, so an unended root pins nothing', () => {
    const c = clock();
    const ancestors = new PendingAncestors({ ttlMs: 1000, now: c.now });
    ancestors.note('never-ends');
    c.ms = 600;
    ancestors.note('recent');
    c.ms = 999;
    expect(ancestors.size).toBe(2);
    c.ms = 1000;
    // Any call sweeps the front: the first id is gone, the later one is still within its time.
    expect(ancestors.take('unrelated')).toBe(false);
    expect(ancestors.size).toBe(1);
    expect(ancestors.take('never-ends')).toBe(false);
    c.ms = 1599;
    expect(ancestors.take('recent')).toBe(true);
  });

  it('an expired id is not taken even when it is the one asked for', () => {
    const c = clock();
    const ancestors = new PendingAncestors({ ttlMs: 50, now: c.now });
    ancestors.note('slow-root');
    c.ms = 51;
    expect(ancestors.take('slow-root')).toBe(false);
    expect(ancestors.size).toBe(0);
  });

  it('stays at its cap under a long stream of ancestors that never end', () => {
    const c = clock();
    const ancestors = new PendingAncestors({ maxEntries: 100, ttlMs: 10_000, now: c.now });
    let largest = 0;
    for (let i = 0; i < 100_000; i++) {
      c.ms = i;
      ancestors.note(`span-${i}`);
      largest = Math.max(largest, ancestors.size);
    }
    expect(largest).toBe(100);
    c.ms = 200_000;
    ancestors.take('x');
    expect(ancestors.size).toBe(0);
  });
});
