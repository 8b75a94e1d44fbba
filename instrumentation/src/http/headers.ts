/**
 * Header access for every shape callers hold: plain objects in any case, WHATWG `Headers`,
 * Node's `IncomingHttpHeaders`, Maps, `[name, value]` pairs and the flat `[name, value, …]`
 * arrays that Node `rawHeaders` and undici's diagnostics channel carry (strings or Buffers).
 */

import { relevantHeaderName } from './relevant-headers.js';

type HeaderValue = string | string[] | number | undefined | null;

function valueToString(value: unknown): string | undefined {
  if (value == null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const v of value) {
      const s = valueToString(v);
      if (s !== undefined) parts.push(s);
    }
    return parts.join(', ');
  }
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
  return undefined;
}

function nameToString(name: unknown): string | undefined {
  if (typeof name === 'string') return name.toLowerCase();
  if (name instanceof Uint8Array)
    return Buffer.from(name.buffer, name.byteOffset, name.byteLength).toString('latin1').toLowerCase();
  return undefined;
}

function add(
  out: Record<string, string>,
  name: unknown,
  value: unknown,
  only?: (name: string) => boolean,
): void {
  const key = nameToString(name);
  if (key === undefined || (only !== undefined && !only(key))) return;
  const v = valueToString(value);
  if (v === undefined) return;
  out[key] = key in out ? `${out[key]}, ${v}` : v;
}

function isIterableHeaders(h: object): h is { forEach: (cb: (value: string, key: string) => void) => void } {
  return (
    typeof (h as { forEach?: unknown }).forEach === 'function' &&
    typeof (h as { get?: unknown }).get === 'function'
  );
}

/**
 * A plain object with lower-case keys and string values. Multiple values join with `, `.
 * Never throws: anything unreadable yields `{}` or the entries read so far.
 */
export function normalizeHeaders(headers: unknown): Record<string, string> {
  return collectHeaders(headers, {});
}

/** normalizeHeaders into `out`, optionally keeping only the names `only` accepts. */
function collectHeaders(
  headers: unknown,
  out: Record<string, string>,
  only?: (name: string) => boolean,
): Record<string, string> {
  if (headers == null || typeof headers !== 'object') return out;
  try {
    if (Array.isArray(headers)) {
      if (headers.length > 0 && !Array.isArray(headers[0])) {
        for (let i = 0; i + 1 < headers.length; i += 2) add(out, headers[i], headers[i + 1], only);
      } else {
        for (const pair of headers) if (Array.isArray(pair)) add(out, pair[0], pair[1], only);
      }
      return out;
    }
    if (headers instanceof Map || isIterableHeaders(headers)) {
      (headers as Map<unknown, unknown>).forEach((value, key) => {
        add(out, key, value, only);
      });
      return out;
    }
    for (const key of Object.keys(headers)) {
      try {
        add(out, key, (headers as Record<string, HeaderValue>)[key], only);
      } catch {
        // one unreadable header must not cost the others
      }
    }
  } catch {
    // A hostile or half-built headers object: keep what was readable.
  }
  return out;
}

/** Relevant (name, value) pairs in first-seen order; a repeated name joins its values with `, `. */
export class RelevantHeaders {
  /** Lower-case names. */
  names: string[] = NO_NAMES;
  /** Values, index for index with `names`. */
  values: string[] = NO_VALUES;

  /** `name` must be lower-case and one isRelevantHeader accepts. */
  get(name: string): string | undefined {
    const names = this.names;
    for (let i = 0; i < names.length; i++) if (names[i] === name) return this.values[i];
    return undefined;
  }

  add(name: unknown, value: unknown): void {
    const key =
      typeof name === 'string' ? relevantHeaderName(name) : relevantHeaderName(nameToString(name) ?? '');
    if (key !== undefined) this.addRelevant(key, value);
  }

  /** `key` is already lower-case and relevant. */
  addRelevant(key: string, value: unknown): void {
    const v = valueToString(value);
    if (v === undefined) return;
    if (this.names === NO_NAMES) {
      this.names = [key];
      this.values = [v];
      return;
    }
    const at = this.names.indexOf(key);
    if (at >= 0) this.values[at] = `${this.values[at]}, ${v}`;
    else {
      this.names.push(key);
      this.values.push(v);
    }
  }
}

const NO_NAMES: string[] = [];
const NO_VALUES: string[] = [];

/**
 * One pass over the caller's headers that keeps only the names the classifier reads or raw
 * stores (retry, rate-limit, vendor error and request-id headers), so unrelated headers (cookies
 * included) are never copied. The few kept pairs live in two short arrays: a linear scan of two
 * or three names beats a dictionary-mode object.
 */
export function pickRelevantHeaders(headers: unknown): RelevantHeaders {
  const picked = new RelevantHeaders();
  pickHeaders(headers, picked);
  return picked;
}

/** Case-insensitive lookups over the relevant headers, picked on first need. */
export class HeaderReader {
  private picked: RelevantHeaders | undefined;

  constructor(private readonly source: unknown) {}

  /** `name` must be lower-case and one isRelevantHeader accepts. */
  get(name: string): string | undefined {
    this.picked ??= pickRelevantHeaders(this.source);
    return this.picked.get(name);
  }
}

/** collectHeaders for the reader: the same shapes, relevance tested before a value is read. */
function pickHeaders(headers: unknown, out: RelevantHeaders): void {
  if (typeof headers !== 'object' || headers === null) return;
  try {
    if (Array.isArray(headers)) {
      if (headers.length > 0 && !Array.isArray(headers[0])) {
        for (let i = 0; i + 1 < headers.length; i += 2) out.add(headers[i], headers[i + 1]);
      } else {
        for (const pair of headers) if (Array.isArray(pair)) out.add(pair[0], pair[1]);
      }
      return;
    }
    if (headers instanceof Map || isIterableHeaders(headers)) {
      (headers as Map<unknown, unknown>).forEach((value, key) => {
        out.add(key, value);
      });
      return;
    }
    const keys = Object.keys(headers);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const lower = relevantHeaderName(key);
      if (lower === undefined) continue;
      try {
        out.addRelevant(lower, (headers as Record<string, HeaderValue>)[key]);
      } catch {
        // one unreadable header must not cost the others
      }
    }
  } catch {
    // A hostile or half-built headers object: keep what was readable.
  }
}

/** Parses a non-negative decimal number without a regex; `undefined` when `text` is not one. */
export function parseSeconds(text: string): number | undefined {
  const s = text.trim();
  if (s.length === 0 || s.length > 20) return undefined;
  let dot = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 && !dot && i > 0) dot = true;
    else if (c < 48 || c > 57) return undefined;
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Seconds until `date` (an HTTP-date or RFC 3339 timestamp) from `nowMs`; `null` when it is past
 * or unparseable. Rounded up: waiting a fraction too long is safe, too short is not.
 */
export function secondsUntilDate(date: string, nowMs?: number): number | null {
  const t = Date.parse(date);
  if (Number.isNaN(t)) return null;
  // The clock is read only here, when a date needs it: Date.now() is not free on every failure.
  const delta = (t - (nowMs ?? Date.now())) / 1000;
  return delta > 0 ? Math.ceil(delta) : delta === 0 ? 0 : null;
}

/**
 * Delay the server asked for, in seconds: `retry-after-ms` / `x-ms-retry-after-ms` (ms), else
 * `Retry-After` as delay-seconds or an HTTP-date. Past, negative or unparseable → `null`: the
 * caller then backs off on its own, never on a guessed number.
 */
export function parseRetryAfter(headers: Record<string, string>, nowMs: number = Date.now()): number | null {
  return retryAfterFrom((name) => headers[name] ?? headers[name.toLowerCase()], nowMs);
}

/** parseRetryAfter over any lookup (a HeaderReader's, gRPC metadata's). */
export function retryAfterFrom(get: (name: string) => string | undefined, nowMs?: number): number | null {
  return retryAfterSeconds(get('retry-after-ms') ?? get('x-ms-retry-after-ms'), get('retry-after'), nowMs);
}

/** The wait from the values of `retry-after-ms` (or `x-ms-retry-after-ms`) and `retry-after`, as parseRetryAfter reads them. */
export function retryAfterSeconds(
  ms: string | undefined,
  retryAfter: string | undefined,
  nowMs?: number,
): number | null {
  if (ms !== undefined) {
    const n = parseSeconds(ms);
    if (n !== undefined) return n / 1000;
  }
  if (retryAfter === undefined) return null;
  const n = parseSeconds(retryAfter);
  if (n !== undefined) return n;
  return secondsUntilDate(retryAfter, nowMs);
}
