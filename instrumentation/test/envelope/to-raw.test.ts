import { describe, expect, it } from 'vitest';
import { RAW_LIMITS, toRaw } from '../../src/envelope/to-raw.js';

describe('toRaw', () => {
  it('copies plain JSON as is', () => {
    expect(toRaw({ a: 1, b: ['x', true, null], c: { d: 'e' } })).toEqual({
      a: 1,
      b: ['x', true, null],
      c: { d: 'e' },
    });
  });

  it('redacts secret keys at any depth and secrets inside strings', () => {
    const raw = toRaw({
      headers: { Authorization: 'Bearer abc', 'set-cookie': ['a=1', 'b=2'], 'x-api-key': 'k' },
      config: { db: { password: 'hunter2', url: 'postgres://u:pw123@h/db' } },
    });
    const text = JSON.stringify(raw);
    expect(text).not.toMatch(/Bearer abc|a=1|hunter2|pw123|"k"/);
    expect(raw).toMatchObject({ headers: { Authorization: '[REDACTED]', 'set-cookie': '[REDACTED]' } });
  });

  it('survives cycles, throwing getters, BigInt, Symbols, functions, Buffers, Maps, Sets, Dates', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const hostile = {
      get boom(): never {
        throw new Error('getter');
      },
      big: 12345678901234567890n,
      sym: Symbol('s'),
      fn: function namedFn() {},
      buf: Buffer.from('secret bytes'),
      map: new Map<unknown, unknown>([
        ['k', 1],
        [2, 'two'],
      ]),
      set: new Set([1, 2]),
      when: new Date('2026-01-02T03:04:05Z'),
      bad: new Date(Number.NaN),
      nan: Number.NaN,
      undef: undefined,
      cyclic,
    };
    const raw = toRaw(hostile) as Record<string, unknown>;
    expect(() => JSON.stringify(raw)).not.toThrow();
    expect(raw).toMatchObject({
      boom: '[Throws]',
      big: '12345678901234567890',
      sym: 'Symbol(s)',
      fn: '[Function namedFn]',
      buf: '[Buffer 12 bytes]',
      map: { k: 1, '2': 'two' },
      set: [1, 2],
      when: '2026-01-02T03:04:05.000Z',
      bad: 'Invalid Date',
      nan: 'NaN',
      undef: null,
      cyclic: { name: 'loop', self: '[Circular]' },
    });
  });

  it('keeps repeated (non-cyclic) references', () => {
    const shared = { v: 1 };
    expect(toRaw({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } });
  });

  it('copies Errors with name, message, own fields and cause chain', () => {
    const err = Object.assign(new Error('outer', { cause: new TypeError('inner') }), { code: 'E1' });
    expect(toRaw(err)).toEqual({
      name: 'Error',
      message: 'outer',
      code: 'E1',
      cause: { name: 'TypeError', message: 'inner' },
    });
  });

  it('caps depth, array length, key count and total size', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(JSON.stringify(toRaw(deep))).toContain('[MaxDepth]');

    const long = toRaw(Array.from({ length: 500 }, (_, i) => i)) as unknown[];
    expect(long.length).toBe(RAW_LIMITS.maxArrayItems + 1);
    expect(long.at(-1)).toBe('[…450 more]');

    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(toRaw(wide) as object).length).toBeLessThanOrEqual(RAW_LIMITS.maxObjectKeys + 1);

    const huge = toRaw({ a: 'x'.repeat(100_000), b: Array.from({ length: 40 }, () => 'y'.repeat(900)) });
    expect(JSON.stringify(huge).length).toBeLessThan(RAW_LIMITS.maxChars * 2);
  });

  it('never throws, even on a proxy that refuses everything', () => {
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
        get() {
          throw new Error('no get');
        },
      },
    );
    expect(() => toRaw(proxy)).not.toThrow();
    expect(toRaw(proxy)).toBe('[Unserializable]');
  });
});
