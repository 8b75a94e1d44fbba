import type { UnixNanos } from './unix-nanos.js';

/**
 * The span times the store accepts, and the rules that make an SDK's odd times valid before the
 * acknowledgement instead of failing an INSERT shared with other clients' spans (ClickHouse refuses
 * DateTime64(9) values past 2262, the trace-id lookup's DateTime ones before 1970, and an insert that
 * spreads over more than 100 day partitions).
 *   - no start and no end: the span is stamped with its arrival time;
 *   - one of the two missing: it takes the other's value (Duration 0);
 *   - a start before EARLIEST_START_SEC or more than MAX_FUTURE_SEC ahead of the collector's clock:
 *     the span is rejected through partial_success with the reason (a broken clock, not data);
 *   - an end before the start: Duration 0; an event time outside the accepted range: clamped to it.
 */
export const EARLIEST_START_SEC = Date.UTC(2000, 0, 1) / 1000;
export const MAX_FUTURE_SEC = 24 * 3600;

const isZero = (t: UnixNanos): boolean => t.sec === 0 && t.ns === 0;

export interface SpanTimes {
  start: UnixNanos;
  end: UnixNanos;
}

/** The span's times made valid, or the reason the span is refused. */
export function normalizeSpanTimes(start: UnixNanos, end: UnixNanos, nowSec: number): SpanTimes | string {
  if (isZero(start) && isZero(end)) {
    const now = { sec: Math.floor(nowSec), ns: 0 };
    return { start: now, end: now };
  }
  const s = isZero(start) ? end : start;
  const e = isZero(end) ? s : end;
  if (s.sec < EARLIEST_START_SEC || s.sec > nowSec + MAX_FUTURE_SEC) {
    return (
      `startTimeUnixNano ${s.sec}.${String(s.ns).padStart(9, '0')} s is outside the accepted range ` +
      `(2000-01-01 to 24 h past the collector's clock): check the sending host's clock and SDK`
    );
  }
  return { start: s, end: e };
}

/** An event time the store can hold: inside the accepted range, else clamped to its nearest end. */
export function acceptedEventTime(t: UnixNanos, nowSec: number): UnixNanos {
  if (t.sec < EARLIEST_START_SEC) return { sec: EARLIEST_START_SEC, ns: 0 };
  const latest = Math.floor(nowSec) + MAX_FUTURE_SEC;
  if (t.sec > latest) return { sec: latest, ns: 0 };
  return t;
}
