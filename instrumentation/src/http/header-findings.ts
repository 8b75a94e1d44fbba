import {
  parseSeconds,
  pickRelevantHeaders,
  type RelevantHeaders,
  retryAfterSeconds,
  secondsUntilDate,
} from './headers.js';
import { restatesStatus } from './status-class.js';
import { awsErrorName, type RankedCodes, rankCode } from './vendor-codes.js';

/** What a failing response's headers said, before the status is consulted. */
export interface HeaderFindings extends RankedCodes {
  /** The server's explicit retry verdict: `true` / `false` in X-Should-Retry or Stripe-Should-Retry. */
  verdict: boolean | undefined;
  /** `0` in a remaining-count header: the client has used up its window. */
  exhausted: boolean;
  /** A Retry-After was sent, whatever its value (GitHub's secondary rate limit is a 403 with one). */
  retryAfterSent: boolean;
  /** Seconds Retry-After or its `-ms` forms asked to wait; `null` when absent, past or unparseable. */
  retryAfter: number | null;
  /** The headers read: they become raw.headers, and hold the rate-limit reset should it be needed. */
  relevant: RelevantHeaders;
}

/** `true` / `false`; `undefined` when absent or anything else. */
function verdictOf(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const s = value.trim().toLowerCase();
  return s === 'true' ? true : s === 'false' ? false : undefined;
}

/**
 * The header reader: one pick of the relevant headers, one pass over them, then what they say.
 * Vendor codes sent as headers (AWS `x-amzn-errortype` / `x-amzn-query-error`, Azure
 * `x-ms-error-code`) are ranked like a body's; the decision weighs them only when the body named
 * no known code.
 */
export function readHeaderFindings(
  headers: unknown,
  status: number,
  nowMs: number | undefined,
): HeaderFindings {
  const h = pickRelevantHeaders(headers);
  let shouldRetry: string | undefined;
  let stripeShouldRetry: string | undefined;
  let retryAfter: string | undefined;
  let retryAfterMs: string | undefined;
  let msRetryAfterMs: string | undefined;
  let amzn: string | undefined;
  let query: string | undefined;
  let ms: string | undefined;
  let structured: string | undefined; // RateLimit (draft-07 and later)
  // `0` in a remaining-count header: the client has used up its window.
  let exhausted = false;
  const { names, values } = h;
  for (let i = 0; i < names.length; i++) {
    const value = values[i] as string;
    switch (names[i]) {
      case 'x-should-retry':
        shouldRetry = value;
        break;
      case 'stripe-should-retry':
        stripeShouldRetry = value;
        break;
      case 'retry-after':
        retryAfter = value;
        break;
      case 'retry-after-ms':
        retryAfterMs = value;
        break;
      case 'x-ms-retry-after-ms':
        msRetryAfterMs = value;
        break;
      case 'x-amzn-errortype':
        amzn = value;
        break;
      case 'x-amzn-query-error':
        query = value;
        break;
      case 'x-ms-error-code':
        ms = value;
        break;
      case 'x-ratelimit-remaining':
      case 'x-rate-limit-remaining':
      case 'ratelimit-remaining':
        if (parseSeconds(value) === 0) exhausted = true;
        break;
      case 'ratelimit':
        structured = value;
        break;
    }
  }
  if (!exhausted && structured !== undefined) exhausted = structuredParam(structured, REMAINING_PARAMS) === 0;
  const found: HeaderFindings = {
    named: undefined,
    ranked: undefined,
    cls: undefined,
    quota: undefined,
    verdict: verdictOf(shouldRetry ?? stripeShouldRetry),
    exhausted,
    retryAfterSent: retryAfter !== undefined,
    // undefined nowMs: the clock is read only if a date needs it
    retryAfter: retryAfterSeconds(retryAfterMs ?? msRetryAfterMs, retryAfter, nowMs),
    relevant: h,
  };
  if (amzn !== undefined) rankCode(found, awsErrorName(amzn));
  if (query !== undefined) rankCode(found, query.split(';')[0]);
  if (ms !== undefined) rankCode(found, ms, !restatesStatus(ms, status));
  return found;
}

// Rate-limit headers: the remaining count is read in the pass above; the window's reset only when
// the decision asks, for a rate limit that sent no Retry-After (reset headers ride on every
// response of some APIs, and turning an epoch or a date into seconds reads the clock).

/** `RateLimit: limit=100, remaining=0, reset=30` (draft-07) and `RateLimit: "default";r=0;t=30` (draft-08+). */
function structuredParam(value: string, names: readonly string[]): number | undefined {
  for (const part of value.split(/[,;]/)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (names.includes(name)) return parseSeconds(part.slice(eq + 1));
  }
  return undefined;
}

// Name lists are module constants: this runs on every failing call, so no per-call arrays.
const REMAINING_PARAMS = ['remaining', 'r'] as const;
const RESET_PARAMS = ['reset', 't'] as const;
const RESET = ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset'] as const;

/**
 * Whether some kept header is the structured `RateLimit` or has `reset` in its name: every
 * reset header read here says so, so without one the dozen lookups below can only miss.
 */
function namesReset(h: RelevantHeaders): boolean {
  const names = h.names;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name === 'ratelimit' || name.includes('reset')) return true;
  }
  return false;
}

/**
 * A reset value that may be delta seconds or a Unix epoch (GitHub and X send epoch seconds,
 * some gateways epoch milliseconds): magnitudes tell them apart, and a past epoch is `null`.
 */
function deltaOrEpoch(n: number, clockMs: number | undefined): number | null {
  if (n < 1e9) return n;
  const nowMs = clockMs ?? Date.now();
  if (n >= 1e12) return n > nowMs ? Math.ceil((n - nowMs) / 1000) : null;
  return n * 1000 > nowMs ? Math.ceil(n - nowMs / 1000) : null;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;

/** OpenAI's `x-ratelimit-reset-requests: 6m0s` / `20ms` / `1.5s`. */
function parseDuration(value: string): number | undefined {
  const plain = parseSeconds(value);
  if (plain !== undefined) return plain;
  let total = 0;
  let matched = '';
  for (const m of value.trim().matchAll(DURATION_PART)) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3600 : m[2] === 'm' ? n * 60 : m[2] === 's' ? n : n / 1000;
    matched += m[0];
  }
  return matched.length > 0 && matched.length === value.trim().length ? total : undefined;
}

/** Per-resource pairs (OpenAI, Anthropic): the reset of whichever resource ran out. */
const PAIRS: ReadonlyArray<[remaining: string, reset: string, kind: 'duration' | 'date']> = [
  ['x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', 'duration'],
  ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens', 'duration'],
  ['anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-requests-reset', 'date'],
  ['anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset', 'date'],
  ['anthropic-ratelimit-input-tokens-remaining', 'anthropic-ratelimit-input-tokens-reset', 'date'],
  ['anthropic-ratelimit-output-tokens-remaining', 'anthropic-ratelimit-output-tokens-reset', 'date'],
];

/**
 * Seconds until the rate-limit window resets, read from the reset headers servers send
 * besides (or instead of) Retry-After. Only consulted for a rate-limited response.
 */
export function rateLimitResetSeconds(h: RelevantHeaders, nowMs?: number): number | null {
  if (!namesReset(h)) return null;
  const structured = h.get('ratelimit');
  if (structured !== undefined) {
    const t = structuredParam(structured, RESET_PARAMS);
    if (t !== undefined) return t;
  }
  const after = h.get('x-ratelimit-reset-after'); // Discord: delta seconds, fractional
  if (after !== undefined) {
    const n = parseSeconds(after);
    if (n !== undefined) return n;
  }
  for (let i = 0; i < RESET.length; i++) {
    const v = h.get(RESET[i] as string);
    if (v === undefined) continue;
    const n = parseSeconds(v);
    if (n !== undefined) return deltaOrEpoch(n, nowMs);
    const d = parseDuration(v) ?? undefined;
    if (d !== undefined) return d;
    return secondsUntilDate(v, nowMs);
  }
  let best: number | null = null;
  for (let i = 0; i < PAIRS.length; i++) {
    const [remainingName, resetName, kind] = PAIRS[i] as (typeof PAIRS)[number];
    const reset = h.get(resetName);
    if (reset === undefined) continue;
    const remaining = h.get(remainingName);
    if (remaining !== undefined && parseSeconds(remaining) !== 0) continue;
    const s = kind === 'duration' ? (parseDuration(reset) ?? null) : secondsUntilDate(reset, nowMs);
    if (s !== null && (best === null || s > best)) best = s;
  }
  return best;
}
