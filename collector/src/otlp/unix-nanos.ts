import { OtlpDecodeError } from './otlp-decode-error.js';

/** A unix timestamp split so nanosecond precision survives JS numbers (sec < 2^35, ns < 1e9). */
export interface UnixNanos {
  sec: number;
  ns: number;
}

const ZERO: UnixNanos = { sec: 0, ns: 0 };

/** fixed64 halves → seconds + nanoseconds, by long division in base 2^16 (every step exact). */
export function nanosFromHalves(lo: number, hi: number): UnixNanos {
  if (hi === 0 && lo === 0) return ZERO;
  let q = 0;
  let r = 0;
  const digits = [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff];
  for (const d of digits) {
    const cur = r * 65536 + d;
    const qd = Math.floor(cur / 1e9);
    r = cur - qd * 1e9;
    q = q * 65536 + qd;
  }
  return { sec: q, ns: r };
}

const DIGITS = /^\d{1,20}$/;

/** OTLP JSON fixed64: a decimal string (the spec's form) or a number. */
export function nanosFromJson(value: unknown, path: string): UnixNanos {
  if (typeof value === 'string') {
    if (!DIGITS.test(value))
      throw new OtlpDecodeError(`${path}: expected unsigned integer nanoseconds, got "${clip(value)}"`);
    if (value.length > 20 || (value.length === 20 && value > '18446744073709551615')) {
      throw new OtlpDecodeError(`${path}: ${value} does not fit in 64 bits`);
    }
    if (value.length <= 9) return { sec: 0, ns: Number(value) };
    return { sec: Number(value.slice(0, -9)), ns: Number(value.slice(-9)) };
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (Number.isSafeInteger(value)) {
      const sec = Math.floor(value / 1e9);
      return { sec, ns: value - sec * 1e9 };
    }
    return nanosFromJson(BigInt(value).toString(), path);
  }
  if (value === undefined || value === null) return ZERO;
  throw new OtlpDecodeError(`${path}: expected unsigned integer nanoseconds as a string or number`);
}

/** DateTime64(9) text the writer expects: `"<unix seconds>.<9 digits>"`. */
export function toDateTime64(t: UnixNanos): string {
  return `${t.sec}.${String(t.ns + 1e9).slice(1)}`;
}

/** End − start in ns; negative (end unset or before start) becomes 0 because Duration is UInt64. */
export function durationNanos(start: UnixNanos, end: UnixNanos): number | string {
  const d = (end.sec - start.sec) * 1e9 + (end.ns - start.ns);
  if (d <= 0) return 0;
  if (Number.isSafeInteger(d)) return d;
  return (BigInt(end.sec - start.sec) * 1_000_000_000n + BigInt(end.ns - start.ns)).toString();
}

export function clip(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
