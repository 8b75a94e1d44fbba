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
