import { redactText } from '../redact.js';
import type { HeaderReader } from './headers.js';

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

function keep(name: string): boolean {
  if (KEEP.has(name)) return true;
  for (const p of KEEP_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

/** The redacted subset of response headers stored in `raw.headers`. */
export function rawHeaders(h: HeaderReader): Record<string, string> {
  const out: Record<string, string> = {};
  const all = h.lowerCaseSource() ?? h.all();
  for (const name in all) {
    if (!keep(name)) continue;
    const value = all[name];
    const v = typeof value === 'string' ? value : h.get(name);
    if (v === undefined) continue;
    out[name] = redactText(v.length > 256 ? v.slice(0, 256) : v);
  }
  return out;
}
