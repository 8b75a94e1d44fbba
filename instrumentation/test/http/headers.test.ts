import { describe, expect, it } from 'vitest';
import { normalizeHeaders, parseRetryAfter } from '../../src/http/headers.js';

const NOW = Date.parse('2026-11-29T15:00:00Z');

describe('normalizeHeaders', () => {
  const expected = { 'retry-after': '5', 'x-multi': 'a, b', 'content-length': '12' };
  it.each<[string, unknown]>([
    ['plain object, any case', { 'Retry-After': '5', 'X-Multi': ['a', 'b'], 'Content-Length': 12 }],
    [
      'Headers instance',
      new Headers([
        ['Retry-After', '5'],
        ['X-Multi', 'a'],
        ['X-Multi', 'b'],
        ['content-length', '12'],
      ]),
    ],
    [
      'Map',
      new Map<string, unknown>([
        ['Retry-After', '5'],
        ['X-Multi', ['a', 'b']],
        ['Content-Length', 12],
      ]),
    ],
    [
      'pairs',
      [
        ['Retry-After', '5'],
        ['X-Multi', 'a'],
        ['x-multi', 'b'],
        ['Content-Length', '12'],
      ],
    ],
    ['flat rawHeaders', ['Retry-After', '5', 'X-Multi', 'a', 'X-Multi', 'b', 'Content-Length', '12']],
    [
      'flat Buffers (undici)',
      ['Retry-After', '5', 'X-Multi', 'a', 'X-Multi', 'b', 'Content-Length', '12'].map((s) => Buffer.from(s)),
    ],
  ])('reads %s', (_name, input) => {
    expect(normalizeHeaders(input)).toEqual(expected);
  });

  it('never throws on junk or hostile input', () => {
    const hostile = {
      get a(): string {
        throw new Error('getter');
      },
      b: '1',
    };
    for (const input of [null, undefined, 42, 'x', hostile])
      expect(() => normalizeHeaders(input)).not.toThrow();
    expect(normalizeHeaders(hostile)).toEqual({ b: '1' });
  });
});

describe('parseRetryAfter', () => {
  it.each<[string, Record<string, string>, number | null]>([
    ['delay-seconds', { 'retry-after': '120' }, 120],
    ['zero', { 'retry-after': '0' }, 0],
    ['whitespace', { 'retry-after': ' 30 ' }, 30],
    ['decimal (Shopify)', { 'retry-after': '2.0' }, 2],
    ['HTTP-date', { 'retry-after': 'Sun, 29 Nov 2026 15:00:30 GMT' }, 30],
    ['past HTTP-date', { 'retry-after': 'Sun, 29 Nov 2026 14:00:00 GMT' }, null],
    ['garbage', { 'retry-after': 'soon-ish' }, null],
    ['negative', { 'retry-after': '-5' }, null],
    ['retry-after-ms wins', { 'retry-after-ms': '1500', 'retry-after': '2' }, 1.5],
    ['x-ms-retry-after-ms (Cosmos)', { 'x-ms-retry-after-ms': '250' }, 0.25],
    ['absent', {}, null],
  ])('%s', (_name, headers, expected) => {
    expect(parseRetryAfter(headers, NOW)).toBe(expected);
  });
});
