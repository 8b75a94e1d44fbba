/**
 * A few allocation-free native scans that tell redactText which of its expressions can match, so ordinary
 * prose and codes pass without running any regular expression. Each hint is a necessary
 * condition of its expression, never a guess: a known key format needs its literal prefix at a
 * word start, an Authorization scheme needs its name at a word start, a userinfo password needs
 * an `@`, an assignment needs a `:` or `=`. Skipping an expression whose hint is absent therefore
 * changes no output, whatever the secret looks like (all letters, all lower case, short).
 */

import { KEY_FORMATS } from './key-formats.js';

/** A KEY_FORMATS prefix starts at a word boundary. */
export const HINT_KEY = 1;
/** An `@`: a `scheme://user:password@` may follow. */
export const HINT_AT = 2;
/** An Authorization scheme name (Bearer, Basic, Token, Digest, Negotiate, NTLM) starts a word. */
export const HINT_SCHEME = 4;
/** A `:` or `=`: a `name: value` assignment may follow. */
export const HINT_ASSIGN = 8;

/** Appends `item` to the list kept at `table[at]`, creating it on first use. */
function pushAt<T>(table: Array<T[] | undefined>, at: number, item: T): void {
  const list = table[at];
  if (list === undefined) table[at] = [item];
  else list.push(item);
}

/** Index of a word's first two characters (`c1 << 7 | c2`), both ASCII. */
function pairIndex(c1: number, c2: number): number {
  return (c1 << 7) | c2;
}

/**
 * KEY_FORMATS prefixes by their first two characters (all prefixes have at least three, and all
 * their characters are ASCII), with each one's third character beside it: most words that start
 * like a prefix (`docs`, `github`) differ at the third, so few reach the full comparison.
 */
const PREFIXES: Array<string[] | undefined> = new Array(128 * 128).fill(undefined);
const THIRDS: Array<number[] | undefined> = new Array(128 * 128).fill(undefined);
for (const [prefix] of KEY_FORMATS) {
  const at = pairIndex(prefix.charCodeAt(0), prefix.charCodeAt(1));
  pushAt(PREFIXES, at, prefix);
  pushAt(THIRDS, at, prefix.charCodeAt(2));
}
/** AUTH_SCHEME's scheme names, lower case. */
const SCHEME_NAMES = ['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm'];
/** Their first two letters, lower case: a word must start with one, in any case, to be a scheme. */
const SCHEME_PAIRS = new Uint8Array(128 * 128);
for (const name of SCHEME_NAMES) SCHEME_PAIRS[pairIndex(name.charCodeAt(0), name.charCodeAt(1))] = 1;

/** Hints raised by a word starting at `at` whose first two characters PAIR_AT_WORD_START matched. */
function wordStartHints(text: string, at: number): number {
  let hints = 0;
  const c1 = text.charCodeAt(at);
  const c2 = text.charCodeAt(at + 1);
  const pair = pairIndex(c1, c2);
  const prefixes = PREFIXES[pair];
  if (prefixes !== undefined) {
    const thirds = THIRDS[pair] as number[];
    const c3 = text.charCodeAt(at + 2);
    for (let k = 0; k < prefixes.length; k++) {
      if (thirds[k] === c3 && text.startsWith(prefixes[k] as string, at)) {
        hints = HINT_KEY;
        break;
      }
    }
  }
  // `| 32` folds ASCII letters to lower case; both characters are word characters here, and no
  // digit or `_` folds onto a letter. AUTH_SCHEME wants white space right after the name:
  // `tokens`, `Basically` raise nothing, which the sticky expression checks.
  if (SCHEME_PAIRS[pairIndex(c1 | 32, c2 | 32)] === 1) {
    SCHEME_HERE.lastIndex = at;
    if (SCHEME_HERE.test(text)) hints |= HINT_SCHEME;
  }
  return hints;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** eitherCase(`bearer`) is `[bB][eE][aA][rR][eE][rR]`: ASCII case folding, spelled out. */
function eitherCase(word: string): string {
  let out = '';
  for (const ch of word) out += `[${ch}${ch.toUpperCase()}]`;
  return out;
}

/** A scheme name, in any case, right at `lastIndex` and followed by white space. */
const SCHEME_HERE = new RegExp(`(?:${SCHEME_NAMES.map(eitherCase).join('|')})(?=\\s)`, 'y');

/**
 * Word starts (`\b` before a word character, as in the redactor's expressions) whose first two
 * characters begin some prefix or scheme name (either case for the schemes): the only places
 * wordStartHints can raise a hint, so most words of prose are passed over natively.
 */
const PAIR_AT_WORD_START = (() => {
  const alternatives = new Set<string>();
  for (const [prefix] of KEY_FORMATS) alternatives.add(escapeRegExp(prefix.slice(0, 2)));
  for (const scheme of SCHEME_NAMES) {
    const [a, b] = [scheme[0] as string, scheme[1] as string];
    alternatives.add(`[${a}${a.toUpperCase()}][${b}${b.toUpperCase()}]`);
  }
  return new RegExp(`\\b(?:${[...alternatives].join('|')})`, 'g');
})();

/**
 * A whole KEY_FORMATS prefix, or a scheme name (either case) before white space, at a word
 * start: true exactly when the PAIR_AT_WORD_START scan raises HINT_KEY or HINT_SCHEME, which
 * then tells the two apart.
 */
const HINT_WORD = new RegExp(
  `\\b(?:${KEY_FORMATS.map(([prefix]) => escapeRegExp(prefix)).join('|')}|(?:${SCHEME_NAMES.map(eitherCase).join('|')})(?=\\s))`,
);

/**
 * The HINT_* bits of `text`; 0 when redactText certainly has nothing to replace.
 *
 * Native scans only (indexOf and one expression), no per-character loop in JavaScript: a
 * `charCodeAt` loop is cheap only while String.prototype has fast properties, and any
 * `class … extends String` in the process (ioredis' VerbatimString is one) turns it into a
 * dictionary, after which every `charCodeAt` is a generic call several times slower.
 */
export function secretHints(text: string): number {
  let hints = 0;
  if (text.indexOf('@') >= 0) hints |= HINT_AT;
  if (text.indexOf(':') >= 0 || text.indexOf('=') >= 0) hints |= HINT_ASSIGN;
  // Most text starts no prefix or scheme at all: one scan for the whole words says so, where
  // the pair scan below stops at every word that merely begins like one (`docs`, `github`).
  if (!HINT_WORD.test(text)) return hints;
  const re = PAIR_AT_WORD_START;
  re.lastIndex = 0;
  while (re.test(text)) {
    const at = re.lastIndex - 2;
    hints |= wordStartHints(text, at);
    if ((hints & (HINT_KEY | HINT_SCHEME)) === (HINT_KEY | HINT_SCHEME)) {
      re.lastIndex = 0;
      break;
    }
  }
  return hints;
}

// Exact pre-checks for redactText's assignment expressions (SECRET_ASSIGNMENT, COOKIE_VALUE). Each says no only
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

/** Whether `text[..end]` ends with the lower-case ASCII `word`, ignoring the case of letters. */
export function endsWithWord(text: string, end: number, word: string): boolean {
  const start = end - word.length + 1;
  if (start < 0) return false;
  for (let j = 0; j < word.length; j++) {
    // `| 32` folds letters only: `_` (session_id) would fold to DEL and never match.
    const c = text.charCodeAt(start + j);
    const w = word.charCodeAt(j);
    if (c !== w && (c | 32) !== w) return false;
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
  'sessid',
  'sess_id',
  'sess-id',
  'sessionid',
  'session_id',
  'session-id',
];

/** SECRET_SUFFIXES by their last letter: most `:` and `=` follow a name that ends in none of them. */
const SUFFIXES_BY_LAST: Array<string[] | undefined> = new Array(128).fill(undefined);
for (const suffix of SECRET_SUFFIXES) {
  const last = suffix.charCodeAt(suffix.length - 1);
  pushAt(SUFFIXES_BY_LAST, last, suffix);
}

/** A name of SECRET_ASSIGNMENT stands before some `:` or `=`. */
export const ASSIGNS_SECRET = 1;
/** `cookie` (COOKIE_VALUE's `Cookie` / `Set-Cookie`) stands before some `:` or `=`. */
export const ASSIGNS_COOKIE = 2;

/**
 * Which assignment expressions can match: each needs its name, an optional quote and spaces,
 * then `:` or `=`, so this walks back from each `:` and `=` to look for such a name.
 */
export function assignmentHints(text: string): number {
  const found = assignsAt(text, ':', 0);
  return found === (ASSIGNS_SECRET | ASSIGNS_COOKIE) ? found : assignsAt(text, '=', found);
}

function assignsAt(text: string, sign: string, found: number): number {
  for (let i = text.indexOf(sign); i >= 0; i = text.indexOf(sign, i + 1)) {
    let j = i - 1;
    while (j >= 0 && isRegExpSpace(text.charCodeAt(j))) j--;
    if (j >= 0) {
      const q = text.charCodeAt(j);
      if (q === 34 || q === 39) {
        j--;
        // A JSON key printed inside a JSON string: `\"password\":`.
        if (j >= 0 && text.charCodeAt(j) === 92) j--;
      }
    }
    if (j < 2) continue;
    // Every name ends in an ASCII letter; `| 32` folds it to lower case (other characters miss the tables).
    const last = text.charCodeAt(j) | 32;
    if (last > 127) continue;
    if ((found & ASSIGNS_COOKIE) === 0 && last === 101 && endsWithWord(text, j, 'cookie'))
      found |= ASSIGNS_COOKIE;
    const suffixes = SUFFIXES_BY_LAST[last];
    if ((found & ASSIGNS_SECRET) === 0 && suffixes !== undefined) {
      for (let k = 0; k < suffixes.length; k++) {
        if (endsWithWord(text, j, suffixes[k] as string)) {
          found |= ASSIGNS_SECRET;
          break;
        }
      }
    }
    if (found === (ASSIGNS_SECRET | ASSIGNS_COOKIE)) return found;
  }
  return found;
}
