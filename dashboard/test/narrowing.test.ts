import { describe, expect, it } from 'vitest';
import { isNarrowed, parseNarrowing } from '../src/lib/narrowing';

describe('narrowing by code, version, endpoint and message', () => {
  it('reads them, and refuses what it cannot use', () => {
    const n = parseNarrowing({ code: '503', version: '2.0.0', endpoint: 'POST /charge', q: '  card  ' });
    expect(n).toEqual({ code: '503', version: '2.0.0', endpoint: 'POST /charge', q: 'card' });
    expect(isNarrowed(n)).toBe(true);
    expect(isNarrowed(parseNarrowing({}))).toBe(false);
    expect(() => parseNarrowing({ q: 'x'.repeat(101) })).toThrow(/at most 100 characters/);
    expect(() => parseNarrowing({ endpoint: 'a\u0000' })).toThrow(/"endpoint" must be an endpoint/);
  });
});
