/**
 * A one-pass, allocation-free pre-check for redactText. Every credential shape redactText knows
 * needs one of: an `=` or `@` (query strings, connection strings, userinfo), a long token-like
 * run with digits or mixed case (API keys, JWTs, base64 credentials), or a word such as
 * `bearer`, `basic`, `password`, `secret`, `token` at a word start. Ordinary prose and codes
 * pass without running any regular expression, which is what keeps envelopes cheap.
 */

const SEPARATOR = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const TOKEN_PUNCT = 4; // _ - + : part of a token
const TRIGGER = 5; // = @

const KIND = new Uint8Array(128);
for (let c = 97; c <= 122; c++) KIND[c] = LOWER;
for (let c = 65; c <= 90; c++) KIND[c] = UPPER;
for (let c = 48; c <= 57; c++) KIND[c] = DIGIT;
for (const ch of '_-+') KIND[ch.charCodeAt(0)] = TOKEN_PUNCT;
for (const ch of '=@') KIND[ch.charCodeAt(0)] = TRIGGER;

/** Words that announce a credential when they start a word (compared case-insensitively). */
const WORDS_BY_INITIAL: Record<number, readonly string[]> = {
  98: ['bearer', 'basic'],
  112: ['password', 'passwd', 'pwd'],
  115: ['secret'],
  116: ['token'],
  97: ['authorization', 'api_key', 'apikey', 'access_token'],
  99: ['credential', 'client_secret'],
};

function wordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let j = 1; j < word.length; j++) {
    if ((text.charCodeAt(at + j) | 32) !== word.charCodeAt(j)) return false;
  }
  return true;
}

/** Runs at least this long with a digit, or this long with mixed case, look like keys. */
const DIGIT_RUN = 8;
const MIXED_RUN = 20;

/** False only when `text` certainly holds nothing redactText would replace. */
export function mayHoldSecret(text: string): boolean {
  let run = 0;
  let digits = false;
  let lower = false;
  let upper = false;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const kind = c < 128 ? KIND[c] : LOWER;
    if (kind === SEPARATOR) {
      if ((digits && run >= DIGIT_RUN) || (lower && upper && run >= MIXED_RUN)) return true;
      run = 0;
      digits = lower = upper = false;
      continue;
    }
    if (kind === TRIGGER) return true;
    if (run === 0 && (kind === LOWER || kind === UPPER)) {
      const words = WORDS_BY_INITIAL[c | 32];
      if (words !== undefined) for (const w of words) if (wordAt(text, i, w)) return true;
    }
    run++;
    if (kind === DIGIT) digits = true;
    else if (kind === LOWER) lower = true;
    else if (kind === UPPER) upper = true;
  }
  return false;
}
