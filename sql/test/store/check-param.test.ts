import { describe, expect, it } from 'vitest';
import { checkParam } from '../../src/store/check-param.js';

describe('checkParam', () => {
  it('turns dates into unix seconds ClickHouse parses for each date type, whatever the server time zone', () => {
    const d = new Date(Date.UTC(2026, 10, 29, 12, 0, 0, 250));
    expect(checkParam('t', 'DateTime', d)).toBe('1795953600');
    expect(checkParam('t', 'DateTime64(3)', d)).toBe('1795953600.250');
    expect(checkParam('t', 'DateTime', '2026-11-29T12:00:00Z')).toBe('1795953600');
    expect(checkParam('t', 'DateTime64(3)', '2026-11-29 12:00:00.5')).toBe('1795953600.500');
    expect(checkParam('t', 'Date', '2026-11-29T23:59:59Z')).toBe('2026-11-29');
    expect(() => checkParam('t', 'DateTime', 'last tuesday')).toThrow(
      /pass a Date, unix seconds, or an ISO-8601 time/,
    );
  });

  it('checks integers against their ClickHouse range, keeping 64-bit values exact', () => {
    expect(checkParam('n', 'UInt64', '18446744073709551615')).toBe('18446744073709551615');
    expect(checkParam('n', 'Int8', -128)).toBe('-128');
    expect(() => checkParam('n', 'UInt8', 256)).toThrow(/out of range 0\.\.255/);
    expect(() => checkParam('n', 'UInt16', '12abc')).toThrow(/expected an integer/);
  });

  it('handles Nullable, LowCardinality, Array, Bool and Float', () => {
    expect(checkParam('s', 'Nullable(String)', null)).toBeNull();
    expect(() => checkParam('s', 'String', null)).toThrow(/declare the parameter Nullable/);
    expect(checkParam('s', 'LowCardinality(String)', 'db')).toBe('db');
    expect(checkParam('a', 'Array(UInt8)', [1, 2])).toEqual([1n, 2n]);
    expect(() => checkParam('a', 'Array(UInt8)', [1, 'x'])).toThrow(/parameter a\[1\] \(UInt8\)/);
    expect(() => checkParam('b', 'Bool', 'true')).toThrow(/expected true or false/);
    expect(checkParam('f', 'Float64', '0.999')).toBe(0.999);
    expect(() => checkParam('f', 'Float64', Number.NaN)).toThrow(/expected a finite number/);
  });
});
