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

/** A word list's expression, and its shortest word: text shorter cannot hold one (each folded character is one code unit). */
interface WordList {
  re: RegExp;
  shortest: number;
}

/**
 * One expression per word list that matches where `text.toLowerCase().includes(word)` would:
 * each ASCII letter in either case, `k` also as the Kelvin sign (the one character besides `İ`
 * that toLowerCase turns into ASCII; `İ` becomes `i` plus a combining dot, which no word holds).
 * One native scan instead of a lower-cased copy and a scan per word.
 */
function anyWord(words: readonly string[]): WordList {
  const fold = (ch: string) =>
    ch === 'k' ? '[kK\u212a]' : ch >= 'a' && ch <= 'z' ? `[${ch}${ch.toUpperCase()}]` : ch;
  return {
    re: new RegExp(words.map((w) => [...w].map(fold).join('')).join('|')),
    shortest: Math.min(...words.map((w) => w.length)),
  };
}

/** Whether `text` holds a word of the list; short codes and messages skip the expression. */
function holds(list: WordList, text: string): boolean {
  return text.length >= list.shortest && list.re.test(text);
}

const RATE_LIMIT = anyWord(RATE_LIMIT_WORDS);
const TRANSIENT = anyWord(TRANSIENT_WORDS);
const AUTH = anyWord(AUTH_WORDS);
const QUOTA = anyWord(QUOTA_WORDS);
const VALIDATION = anyWord(VALIDATION_WORDS);

/** The part of a message the word lists look at. */
function head(message: string): string {
  return message.length > 400 ? message.slice(0, 400) : message;
}

/** Whether a message names a rate limit: GitHub's primary and secondary limits arrive as 403s saying so. */
export function mentionsRateLimit(message: string): boolean {
  return holds(RATE_LIMIT, head(message));
}

/** Whether a message says the account's credit or quota is exhausted (see QUOTA_WORDS). */
export function mentionsExhaustedQuota(message: string): boolean {
  return holds(QUOTA, head(message));
}

/**
 * Last-resort class for a failure reported only in words (a 2xx body with `ok: false` and no
 * known code). Ordered so the most actionable reading wins.
 */
export function classFromMessage(message: string): ErrorClass | undefined {
  const text = head(message);
  if (holds(RATE_LIMIT, text)) return 'rate_limit';
  if (holds(AUTH, text)) return 'authentication';
  if (holds(TRANSIENT, text)) return 'transient';
  if (holds(VALIDATION, text)) return 'validation';
  return undefined;
}
