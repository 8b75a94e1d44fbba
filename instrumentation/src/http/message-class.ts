import type { ErrorClass } from '../types.js';

const RATE_LIMIT_WORDS = [
  'rate limit',
  'ratelimit',
  'rate-limit',
  'too many requests',
  'throttl',
  'slow down',
  'abuse detection',
];
const TRANSIENT_WORDS = [
  'overloaded',
  'temporarily unavailable',
  'try again later',
  'timed out',
  'timeout',
  'unavailable',
];
const AUTH_WORDS = [
  'unauthorized',
  'unauthenticated',
  'not authenticated',
  'not authorized',
  'authentication',
  'invalid token',
  'token expired',
  'expired token',
  'invalid api key',
  'bad credentials',
  'invalid credentials',
  'permission denied',
  'access denied',
  'forbidden',
];
/**
 * Billing and credit exhaustion said only in words, under a status that means something else:
 * Anthropic answers a 400 invalid_request_error "Your credit balance is too low to access the
 * Anthropic API" (https://docs.anthropic.com/en/api/errors). A bill is not repaired by editing the
 * request nor by waiting, so it is permanent whatever the status table says.
 */
const QUOTA_WORDS = [
  'credit balance is too low',
  'insufficient credit',
  'insufficient balance',
  'out of credits',
  'exceeded your current quota',
  'billing hard limit',
];

const VALIDATION_WORDS = ['invalid', 'required', 'must be', 'malformed', 'validation'];

function hasAny(text: string, words: readonly string[]): boolean {
  for (const w of words) if (text.includes(w)) return true;
  return false;
}

/** Whether a message names a rate limit: GitHub's primary and secondary limits arrive as 403s saying so. */
export function mentionsRateLimit(message: string): boolean {
  return hasAny(message.slice(0, 400).toLowerCase(), RATE_LIMIT_WORDS);
}

/** Whether a message says the account's credit or quota is exhausted (see QUOTA_WORDS). */
export function mentionsExhaustedQuota(message: string): boolean {
  return hasAny(message.slice(0, 400).toLowerCase(), QUOTA_WORDS);
}

/**
 * Last-resort class for a failure reported only in words (a 2xx body with `ok: false` and no
 * known code). Ordered so the most actionable reading wins.
 */
export function classFromMessage(message: string): ErrorClass | undefined {
  const text = message.slice(0, 400).toLowerCase();
  if (hasAny(text, RATE_LIMIT_WORDS)) return 'rate_limit';
  if (hasAny(text, AUTH_WORDS)) return 'authentication';
  if (hasAny(text, TRANSIENT_WORDS)) return 'transient';
  if (hasAny(text, VALIDATION_WORDS)) return 'validation';
  return undefined;
}
