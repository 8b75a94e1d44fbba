/**
 * Headers worth keeping for offline inspection: retry and rate-limit signals, vendor error
 * codes, request ids to quote to a vendor. An allowlist, so credentials (Authorization,
 * Cookie, Set-Cookie, API keys) never get in, whatever a server echoes back.
 */
const KEEP = new Set([
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-ms-retry-after-ms',
  'x-should-retry',
  'stripe-should-retry',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-amzn-errortype',
  'x-amzn-requestid',
  'x-amz-request-id',
  'x-amzn-query-error',
  'x-ms-error-code',
  'x-ms-request-id',
  'request-id',
  'x-request-id',
  'x-github-request-id',
  'cf-ray',
  'server',
  'www-authenticate',
  'x-github-sso',
  'x-accepted-oauth-scopes',
  'x-oauth-scopes',
]);

const KEEP_PREFIXES = ['x-ratelimit-', 'x-rate-limit-', 'anthropic-ratelimit-', 'x-ms-ratelimit-'];

/** Whether a (lower-case) header name is one the classifier reads or raw keeps. */
export function isRelevantHeader(name: string): boolean {
  if (KEEP.has(name)) return true;
  const first = name.charCodeAt(0);
  if (first !== 120 /* x */ && first !== 97 /* a */) return false;
  for (const p of KEEP_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

/** Header names as callers spell them, mapped to their relevant lower-case name or `''`. */
const BY_SPELLING = new Map<string, string>();

/**
 * The lower-case name of a header as sent (`Retry-After`, `retry-after`), or `undefined` when it
 * is not relevant. Header names are few and repeat on every response, so the verdict for each
 * spelling is remembered (within a bound): one lookup instead of a lower-casing, a set lookup and
 * the prefix tests.
 */
export function relevantHeaderName(name: string): string | undefined {
  let lower = BY_SPELLING.get(name);
  if (lower === undefined) {
    const l = name.toLowerCase();
    lower = isRelevantHeader(l) ? l : '';
    if (BY_SPELLING.size >= 4096) BY_SPELLING.clear();
    BY_SPELLING.set(name, lower);
  }
  return lower === '' ? undefined : lower;
}
