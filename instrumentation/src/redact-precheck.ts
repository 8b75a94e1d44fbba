/**
 * Exact pre-checks for redactText's two costliest regular expressions. Each returns false only
 * when its expression certainly cannot match, so skipping the expression changes no output:
 * most error text has a `:` or a space but no secret name or auth scheme in front of it.
 */

/** `\s` of a non-unicode JavaScript RegExp. */
function isRegExpSpace(c: number): boolean {
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
function endsWithWord(text: string, end: number, word: string): boolean {
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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 58 && c !== 61) continue;
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

const AUTH_SCHEMES = ['bearer', 'basic', 'token', 'digest', 'negotiate', 'ntlm'];

/** AUTH_SCHEME needs one of its scheme names directly before white space. */
export function mayHoldAuthScheme(text: string): boolean {
  for (let i = 4; i < text.length; i++) {
    if (!isRegExpSpace(text.charCodeAt(i))) continue;
    for (let k = 0; k < AUTH_SCHEMES.length; k++) {
      if (endsWithWord(text, i - 1, AUTH_SCHEMES[k] as string)) return true;
    }
  }
  return false;
}
