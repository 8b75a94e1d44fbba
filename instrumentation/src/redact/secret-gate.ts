/**
 * A few allocation-free native scans that tell redactText which of its expressions can match, so ordinary
 * prose and codes pass without running any regular expression. Each hint is a necessary
 * condition of its expression, never a guess: a known key format needs its literal prefix at a
 * word start, an Authorization scheme needs its name at a word start, a userinfo password needs
 * an `@`, an assignment needs a `:` or `=`. Skipping an expression whose hint is absent therefore
 * changes no output, whatever the secret looks like (all letters, all lower case, short).
 */

import { escapeRegExp } from './escape-regexp.js';
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

/** AUTH_SCHEME's scheme names, lower case. */
const SCHEME_NAMES = ['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm'];

/** eitherCase(`bearer`) is `[bB][eE][aA][rR][eE][rR]`: ASCII case folding, spelled out. */
function eitherCase(word: string): string {
  let out = '';
  for (const ch of word) out += `[${ch}${ch.toUpperCase()}]`;
  return out;
}

/**
 * A whole KEY_FORMATS prefix, or a scheme name (either case) before white space, at a word
 * start (`\b`, as in the redactor's expressions). Global: one pass finds every hit, and each
 * hit's kind follows from its end (see endsWithScheme).
 */
const HINT_WORD = new RegExp(
  `\\b(?:${KEY_FORMATS.map(([prefix]) => escapeRegExp(prefix)).join('|')}|(?:${SCHEME_NAMES.map(eitherCase).join('|')})(?=\\s))`,
  'g',
);

/**
 * Whether the HINT_WORD hit ending before `end` is a scheme name: no key-prefix hit can end like
 * one (keyHitCanEndLikeScheme, held false by a test), so a hit that ends in a scheme name before
 * white space is that name, and any other hit is a key prefix.
 */
function endsWithScheme(text: string, end: number): boolean {
  if (end >= text.length || !isRegExpSpace(text.charCodeAt(end))) return false;
  for (let k = 0; k < SCHEME_NAMES.length; k++)
    if (endsWithWord(text, end - 1, SCHEME_NAMES[k] as string)) return true;
  return false;
}

/**
 * Whether a key-prefix hit could pass endsWithScheme, which reads the scheme name's length back
 * from the hit's end: a prefix as long as the name would have to end in it, a shorter one would
 * have to be the name's own ending (the text before the hit supplying the rest). Either breaks
 * endsWithScheme, which would then drop HINT_KEY for a real key.
 */
export function keyHitCanEndLikeScheme(): boolean {
  return KEY_FORMATS.some(([prefix]) => {
    const p = prefix.toLowerCase();
    return SCHEME_NAMES.some((name) => p.endsWith(name) || name.endsWith(p));
  });
}

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
  const re = HINT_WORD;
  re.lastIndex = 0;
  while (re.test(text)) {
    hints |= endsWithScheme(text, re.lastIndex) ? HINT_SCHEME : HINT_KEY;
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
