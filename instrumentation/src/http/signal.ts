import type { ErrorClass } from '../types.js';
import { QUOTA, type VendorMeaning, vendorMeaning } from './vendor-codes.js';

/** What a response body or header said about a failure, before the status is consulted. */
export interface Signal {
  /** The body reports a failure even if the status does not (2xx silent failures). */
  failure: boolean;
  /** Class from a recognized vendor code; unset when only the status can decide. */
  cls?: ErrorClass;
  /** Exhausted quota or billing: never retryable, whatever the status says. */
  quota?: boolean;
  code?: string;
  message?: string;
  /** The server's explicit retry verdict (problem body `retryable`). */
  retryable?: boolean;
  /** Seconds the body asked to wait (problem `retry_after`, Discord, google.rpc.RetryInfo, Shopify cost). */
  retryAfter?: number;
}

/**
 * A Signal with every field present from the start, so all signals share one hidden class and
 * the classifier's reads of them stay monomorphic whichever fields a body filled in.
 */
export function newSignal(failure: boolean, message?: string): Signal {
  return {
    failure,
    cls: undefined,
    quota: undefined,
    code: undefined,
    message,
    retryable: undefined,
    retryAfter: undefined,
  };
}

/** Order in which codes win when one body carries several errors: the one that stops everything first. */
const RANK: Record<VendorMeaning, number> = {
  rate_limit: 5,
  quota: 4,
  authentication: 3,
  transient: 2,
  validation: 1,
  permanent: 0,
};

/**
 * Applies a vendor code to a signal. `specific` codes (an `error.code`, `__type`, a GraphQL
 * extension code) may become the envelope's code; category fields (`error.type`, Google's
 * canonical `status`, Stripe's `decline_code`) only inform the class, and the status stays the
 * code. Returns whether the code was recognized.
 */
export function applyCode(sig: Signal, code: string | undefined, specific = true): boolean {
  if (code === undefined || code === '') return false;
  if (specific && sig.code === undefined) sig.code = code;
  const meaning = vendorMeaning(code);
  if (meaning === undefined) return false;
  const current: VendorMeaning | undefined = sig.quota ? QUOTA : sig.cls;
  if (current !== undefined && RANK[current] >= RANK[meaning]) return true;
  if (specific) sig.code = code;
  if (meaning === QUOTA) {
    sig.cls = 'permanent';
    sig.quota = true;
  } else {
    sig.cls = meaning;
    sig.quota = false;
  }
  return true;
}

/** The white space that makes a string prose rather than a code. */
const PROSE_SPACE = /[ \n\r\t]/;

/** A short identifier-like string (`invalid_auth`, `ThrottlingException`, `20429`), not prose. */
export function asCode(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 96) return undefined;
  // A native scan: a charCodeAt loop slows down severalfold once String.prototype leaves fast
  // mode (see secretHints).
  return PROSE_SPACE.test(value) ? undefined : value;
}

/** A non-empty string, or undefined. */
export function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Seconds from a number, a numeric string, or a protobuf Duration (`"30s"`, `{ seconds, nanos }`). */
export function asSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string') {
    const s = value.endsWith('s') && !value.endsWith('ms') ? value.slice(0, -1) : value;
    const n = s.trim() === '' ? Number.NaN : Number(s);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const d = value as { seconds?: unknown; nanos?: unknown };
    const secs = Number(d.seconds ?? 0);
    const nanos = Number(d.nanos ?? 0);
    if (Number.isFinite(secs) && Number.isFinite(nanos) && (d.seconds !== undefined || d.nanos !== undefined))
      return secs + nanos / 1e9;
  }
  return undefined;
}
