/**
 * A one-pass, allocation-free pre-check for redactText. Every credential shape redactText knows
 * needs one of: an `=` or `@` (query strings, connection strings, userinfo), a long token-like
 * run with digits or mixed case (API keys, JWTs, base64 credentials), or a word such as
 * `bearer`, `basic`, `password`, `secret`, `token` at a word start. Ordinary prose and codes
 * pass without running any regular expression, which is what keeps envelopes cheap. The
 * exact pre-checks below decide, for text that passes the gate, which expressions can match.
 */

/** Character classes as bits, so one table read both classifies a character and updates a run. */
const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const TOKEN_PUNCT = 8; // _ - + : part of a token
const TRIGGER = 16; // = @
/** A letter that may start one of WORDS (b p s t a c, either case). */
const INITIAL = 32;

const KIND = new Uint8Array(128);
for (let c = 97; c <= 122; c++) KIND[c] = LOWER;
for (let c = 65; c <= 90; c++) KIND[c] = UPPER;
for (let c = 48; c <= 57; c++) KIND[c] = DIGIT;
for (const ch of '_-+') KIND[ch.charCodeAt(0)] = TOKEN_PUNCT;
for (const ch of '=@') KIND[ch.charCodeAt(0)] = TRIGGER;
for (const ch of 'bpstacBPSTAC') KIND[ch.charCodeAt(0)] = (KIND[ch.charCodeAt(0)] as number) | INITIAL;

/** Words that announce a credential when they start a word (compared case-insensitively), by initial. */
const WORDS: Array<readonly string[] | undefined> = new Array(128).fill(undefined);
WORDS[98] = ['bearer', 'basic'];
WORDS[112] = ['password', 'passwd', 'pwd'];
WORDS[115] = ['secret'];
WORDS[116] = ['token'];
WORDS[97] = ['authorization', 'api_key', 'apikey', 'access_token'];
WORDS[99] = ['credential', 'client_secret'];

function wordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let j = 1; j < word.length; j++) {
    // `| 32` folds letters only: `_` (api_key, access_token, client_secret) must match as is.
    const c = text.charCodeAt(at + j);
    const w = word.charCodeAt(j);
    if (c !== w && (c | 32) !== w) return false;
  }
  return true;
}

function startsWord(text: string, at: number, c: number): boolean {
  const words = WORDS[c | 32];
  if (words === undefined) return false;
  for (let k = 0; k < words.length; k++) if (wordAt(text, at, words[k] as string)) return true;
  return false;
}

/** Runs at least this long with a digit, or this long with mixed case, look like keys. */
const DIGIT_RUN = 8;
const MIXED_RUN = 20;

/** Whether a run of `run` token characters with the class bits `seen` looks like a key. */
function keyLike(run: number, seen: number): boolean {
  return (
    run >= DIGIT_RUN &&
    ((seen & DIGIT) !== 0 || (run >= MIXED_RUN && (seen & (LOWER | UPPER)) === (LOWER | UPPER)))
  );
}

/** False only when `text` certainly holds nothing redactText would replace. */
export function mayHoldSecret(text: string): boolean {
  let run = 0;
  let seen = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Most characters are lower-case letters inside a word: keep that path to two compares.
    if (c >= 97 && c <= 122 && run !== 0) {
      run++;
      seen |= LOWER;
      continue;
    }
    // Non-ASCII counts as a lower-case letter: part of a word, never a trigger.
    const kind = c < 128 ? (KIND[c] as number) : LOWER;
    if (kind === 0) {
      if (run >= DIGIT_RUN && keyLike(run, seen)) return true;
      run = 0;
      seen = 0;
    } else if (kind === TRIGGER) {
      return true;
    } else {
      if (run === 0 && (kind & INITIAL) !== 0 && startsWord(text, i, c)) return true;
      run++;
      seen |= kind;
    }
  }
  return keyLike(run, seen);
}

// Exact pre-check for redactText's costliest regular expression (SECRET_ASSIGNMENT). Each returns false only
// when its expression certainly cannot match, so skipping the expression changes no output:
// most error text has a `:` (URLs, `key: value` prose) but no secret name in front of it.

/** `\s` of a non-unicode JavaScript RegExp. */
export function isRegExpSpace(c: number): boolean {
  if (c > 32 && c < 160) return false;
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether `text[..end]` ends with the lower-case ASCII `word`, ignoring ASCII case. */
export function endsWithWord(text: string, end: number, word: string): boolean {
  const start = end - word.length + 1;
  if (start < 0) return false;
  for (let j = 0; j < word.length; j++) {
    if ((text.charCodeAt(start + j) | 32) !== word.charCodeAt(j)) return false;
  }
  return true;
}

/** Endings of SECRET_ASSIGNMENT's names (`api[_-]?key`, `auth[_-]?key`, `private[_-]?key` end in `key`). */
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'signature',
  'credential',
  'authorization',
  'sig',
  'key',
];

/**
 * SECRET_ASSIGNMENT needs a secret name, an optional quote and spaces, then `:` or `=`; this
 * walks back from each `:` and `=` to look for such a name.
 */
export function mayAssignSecret(text: string): boolean {
  return assignsAt(text, ':') || assignsAt(text, '=');
}

function assignsAt(text: string, sign: string): boolean {
  for (let i = text.indexOf(sign); i >= 0; i = text.indexOf(sign, i + 1)) {
    let j = i - 1;
    while (j >= 0 && isRegExpSpace(text.charCodeAt(j))) j--;
    if (j >= 0) {
      const q = text.charCodeAt(j);
      if (q === 34 || q === 39) j--;
    }
    if (j < 2) continue;
    for (let k = 0; k < SECRET_SUFFIXES.length; k++) {
      if (endsWithWord(text, j, SECRET_SUFFIXES[k] as string)) return true;
    }
  }
  return false;
}
