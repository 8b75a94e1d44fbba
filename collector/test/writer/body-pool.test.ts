import { describe, expect, it } from 'vitest';
import { BodyPool } from '../../src/writer/body-pool.js';

describe('BodyPool', () => {
  it('hands a returned buffer out again for a body that fits, as a view of exactly the size asked', () => {
    const pool = new BodyPool();
    const a = pool.take(100_000);
    expect(a.length).toBe(100_000);
    a.fill(1);
    pool.give(a);
    expect(pool.freeBytes).toBe(a.buffer.byteLength);
    const b = pool.take(90_000);
    expect(b.length).toBe(90_000);
    expect(b.buffer).toBe(a.buffer);
    expect(pool.freeBytes).toBe(0);
    // Not returned yet: the next body gets a backing store of its own.
    expect(pool.take(90_000).buffer).not.toBe(b.buffer);
  });

  it('ignores a second give of the same body, so one buffer is never handed to two writers', () => {
    const pool = new BodyPool();
    const a = pool.take(10_000);
    pool.give(a);
    pool.give(a);
    const first = pool.take(10_000);
    const second = pool.take(10_000);
    expect(first.buffer).toBe(a.buffer);
    expect(second.buffer).not.toBe(a.buffer);
  });

  it('ignores buffers it did not make', () => {
    const pool = new BodyPool();
    pool.give(Buffer.alloc(200_000));
    pool.give(Buffer.from('{"a":1}\n'));
    expect(pool.freeBytes).toBe(0);
  });

  it('keeps at most maxFreeBytes idle and never pools a body over maxBodyBytes', () => {
    const pool = new BodyPool(256 * 1024, 512 * 1024);
    const bodies = [pool.take(100_000), pool.take(100_000), pool.take(100_000)];
    for (const b of bodies) pool.give(b);
    // Each is a 128 KiB store: two fit under 256 KiB, the third is left to the garbage collector.
    expect(pool.freeBytes).toBe(256 * 1024);
    const big = pool.take(600_000);
    expect(big.length).toBe(600_000);
    pool.give(big);
    expect(pool.freeBytes).toBe(256 * 1024);
  });
});
