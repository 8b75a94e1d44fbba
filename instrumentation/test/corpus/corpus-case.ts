/**
 * Shape of one acceptance-corpus case. Cases are built from the real libraries' and vendors' error
 * shapes (see each case's `origin`), so a mismatch points at a gap a user would hit in production.
 */
import type { ClassifyContext, ErrorClass, HttpResponseLike } from '../../src/types.js';

/** A retry delay that depends on the wall clock (HTTP-date, x-ratelimit-reset) is checked as a range. */
export interface RetryAfterRange {
  min: number;
  max: number;
}

export interface Expected {
  class: ErrorClass;
  /** Asserted only where the most specific stable code is unambiguous. */
  code?: string;
  retryable: boolean;
  /** Asserted when present (including `null`); omitted when the case does not pin it. */
  retry_after?: number | null | RetryAfterRange;
}

interface CaseBase {
  id: string;
  /** Library/vendor + version + file or doc URL the shape was taken from. */
  origin: string;
  /** Why the expectation is what it is, where the case is ambiguous. */
  note?: string;
  ctx?: ClassifyContext;
  /** Strings planted in the input that must never appear in JSON.stringify(envelope). */
  secrets?: string[];
}

export interface HttpCase extends CaseBase {
  /** A function when the input depends on the clock (HTTP-date, epoch reset headers). */
  input: HttpResponseLike | (() => HttpResponseLike);
  /** `null`: the response is a success and classifyHttpResponse must return null. */
  expected: Expected | null;
}

export interface ErrorCase extends CaseBase {
  /** Constructs the error exactly as the real library does (real instances where installed). */
  build: () => unknown | Promise<unknown>;
  expected: Expected;
}
