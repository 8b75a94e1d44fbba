import { describe, expect, it } from 'vitest';
import { timeTicks } from '../src/lib/time-ticks';
import {
  formatZoned,
  isTimeZone,
  parseZonedInput,
  zoneFromCookie,
  zoneOffsetMinutes,
} from '../src/lib/zoned-time';

// 2026-01-31 09:30:00 UTC: winter, so Berlin is +01:00; Kolkata is +05:30 all year.
const T = Date.UTC(2026, 0, 31, 9, 30, 0) / 1000;

describe('times in UTC or the reader’s zone', () => {
  it('formats 24-hour wall time with the zone', () => {
    expect(formatZoned(T, 'UTC')).toBe('2026-01-31 09:30:00 UTC');
    expect(formatZoned(T, 'Europe/Berlin')).toBe('2026-01-31 10:30:00 +01:00');
    expect(formatZoned(T, 'Asia/Kolkata')).toBe('2026-01-31 15:00:00 +05:30');
    expect(formatZoned(T + 12 * 3600, 'America/New_York', 'input')).toBe('2026-01-31 16:30');
    expect(formatZoned(T, 'UTC', 'short')).toBe('01-31 09:30:00');
    expect(formatZoned(T, 'Asia/Kolkata', 'clock')).toBe('15:00');
  });

  it('reads typed wall time back in the zone, across a DST change', () => {
    expect(parseZonedInput('2026-01-31 10:30', 'Europe/Berlin')).toBe(T);
    expect(parseZonedInput('2026-01-31T15:00', 'Asia/Kolkata')).toBe(T);
    // Summer: Berlin is +02:00.
    expect(parseZonedInput('2026-07-01 12:00', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 10, 0) / 1000);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 1), 'Europe/Berlin')).toBe(120);
    for (const bad of ['2026-01-31 9:30', '2026-02-30 10:00', '31.01.2026 10:30', '2026-01-31 10:30 PM'])
      expect(parseZonedInput(bad, 'UTC'), bad).toBeNull();
  });

  it('takes a zone from the cookie only when Intl knows it', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(zoneFromCookie('Mars/Olympus')).toBe('UTC');
    expect(zoneFromCookie(undefined)).toBe('UTC');
    expect(zoneFromCookie('Europe/Berlin')).toBe('Europe/Berlin');
  });

  it('puts axis ticks on round times', () => {
    // An hour: every 10 minutes (at most 8 ticks), on the clock's tens.
    expect(timeTicks(T - 3600, T)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => T - 3600 + i * 600));
    expect(timeTicks(T - 3599, T + 1)).toEqual([1, 2, 3, 4, 5, 6].map((i) => T - 3600 + i * 600));
  });
});
