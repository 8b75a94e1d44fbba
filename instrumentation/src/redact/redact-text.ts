/**
 * Text redaction for envelope messages and raw strings. Secrets reach error text through URLs,
 * connection strings, echoed headers and vendor messages; an envelope travels to span storage
 * and model prompts, so anything shaped like a credential is replaced before it leaves here.
 */

import { keyFormatsRegExp } from './key-formats.js';
import {
  ASSIGNS_COOKIE,
  ASSIGNS_SECRET,
  assignmentHints,
  endsWithWord,
  HINT_ASSIGN,
  HINT_AT,
  HINT_KEY,
  HINT_SCHEME,
  isRegExpSpace,
  secretHints,
} from './secret-gate.js';

export const REDACTED = '[REDACTED]';

/** Shorter text cannot hold a credential worth the name (the shortest pattern, `pwd=`, needs a value). */
const MIN_SECRET_TEXT = 6;

/** `Authorization` schemes followed by their credential. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token|Digest|Negotiate|NTLM)(\s+)([A-Za-z0-9\-._~+/]+=*)/gi;

/** `scheme://user:password@host`: keeps scheme, user and host. Greedy so passwords may hold `@`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]*):([^\s/]*)@/gi;

/**
 * `name=value`, `name: value`, `"name":"value"` where the name says it is a secret: query strings
 * (`access_token=`, `X-Amz-Signature=`, `sig=`), libpq/ADO.NET connection strings, JSON echoes.
 * JSON pairs come whole: a quoted value may hold escaped quotes (`"p\"w"`), and a JSON document
 * printed inside a JSON string (graphql-request and many SDKs put the request body into their
 * message) escapes its own quotes: `\"password\": \"…\"`.
 */
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|signature|credential|authorization|auth[_-]?key|private[_-]?key|sig|key|sess(?:ion)?[_-]?id))((?:\\?["'])?\s*[:=]\s*)((?:Bearer|Basic|Token|Digest|Negotiate|NTLM)\s+[^\s&;,"'}\])<>]+|\\"(?:[^"\\]|\\[^"])*\\"|"(?:[^"\\]|\\.)*"|'[^']*'|[^\s&;,"'}\])<>]+)/gi;

/** Well-known key formats whose shape alone identifies them. */
const KNOWN_KEYS = keyFormatsRegExp();

/**
 * `Cookie: a=b; c=d` and `Set-Cookie: …` echoes: every cookie of the header is a possible
 * session, so the whole value goes (to the end of the line, or of the quoted JSON string).
 */
const COOKIE_VALUE = /\b((?:set-)?cookie)(["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\r\n]+)/gi;

/** Base64 credentials carry a digit, an upper-case letter after the first or `+/=`; prose words do not. */
function looksLikeCredential(token: string): boolean {
  if (token.length < 8) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61 || (i > 0 && c >= 65 && c <= 90))
      return true;
  }
  return false;
}

/**
 * Parameters of a WWW-Authenticate challenge (RFC 9110 §11.6.1, RFC 6750 §3, RFC 7616 §3.3):
 * `Bearer error="invalid_token"` names a failure, not a credential. A token68 credential holds
 * `=` only as trailing padding, so `name=` with one of these names cannot be one.
 */
const CHALLENGE_PARAMS = new Set([
  'realm',
  'error',
  'error_description',
  'error_uri',
  'scope',
  'charset',
  'nonce',
  'opaque',
  'qop',
  'stale',
  'domain',
  'algorithm',
]);

/** Whether an AUTH_SCHEME credential (`=` padding included) is a challenge's `name=` instead. */
function isChallengeParam(token: string): boolean {
  const n = token.length;
  return (
    n > 3 &&
    token.charCodeAt(n - 1) === 61 &&
    token.charCodeAt(n - 2) !== 61 &&
    CHALLENGE_PARAMS.has(token.slice(0, n - 1).toLowerCase())
  );
}

/**
 * Where a scheme name of AUTH_SCHEME stands before white space. Native and capture-free: it
 * only finds candidates, and mayRedactAuthScheme decides on each without the replace callback.
 */
const SCHEME_BEFORE_SPACE = /\b(?:bearer|basic|token|digest|negotiate|ntlm)(?=\s)/gi;

/** A character of AUTH_SCHEME's credential class `[A-Za-z0-9\-._~+/]`. */
function isCredentialChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 46 ||
    c === 95 ||
    c === 126 ||
    c === 43 ||
    c === 47
  );
}

/**
 * Exact pre-check for the AUTH_SCHEME replacement: true when some scheme name at a word start,
 * followed by white space and a credential, is one the replacer would redact (any Bearer, or a
 * token that looksLikeCredential). Prose such as "the access token expired" matches the
 * expression but is left as is, so it skips the expression and its callback altogether.
 */
function mayRedactAuthScheme(text: string): boolean {
  const n = text.length;
  SCHEME_BEFORE_SPACE.lastIndex = 0;
  while (SCHEME_BEFORE_SPACE.test(text)) {
    const space = SCHEME_BEFORE_SPACE.lastIndex;
    let t = space + 1;
    while (t < n && isRegExpSpace(text.charCodeAt(t))) t++;
    let end = t;
    while (end < n && isCredentialChar(text.charCodeAt(end))) end++;
    if (end === t) continue;
    while (end < n && text.charCodeAt(end) === 61) end++;
    const token = text.slice(t, end);
    if (isChallengeParam(token)) continue;
    if (endsWithWord(text, space - 1, 'bearer') || looksLikeCredential(token)) {
      SCHEME_BEFORE_SPACE.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** Replaces credentials in free text with `[REDACTED]`; text without any passes through unchanged. */
export function redactText(text: string): string {
  if (typeof text !== 'string') return '';
  if (text.length < MIN_SECRET_TEXT) return text;
  const hints = secretHints(text);
  return hints === 0 ? text : redactWith(text, hints, true);
}

/**
 * redactText without any pre-check: every expression runs. The gate's proof of exactness is a
 * test that compares both on generated text; nothing else should call this.
 */
export function redactTextUngated(text: string): string {
  return redactWith(text, HINT_KEY | HINT_AT | HINT_SCHEME | HINT_ASSIGN, false);
}

function redactWith(text: string, hints: number, gated: boolean): string {
  let out = text;
  if ((hints & HINT_KEY) !== 0) {
    out = text.replace(KNOWN_KEYS, REDACTED);
    // A removed key can leave a new word start behind it: hint the text that is actually left.
    if (gated && out !== text) hints = secretHints(out);
  }
  if ((hints & HINT_AT) !== 0 && (!gated || out.indexOf('://') >= 0))
    out = out.replace(URL_PASSWORD, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
  if ((hints & HINT_SCHEME) !== 0 && (!gated || mayRedactAuthScheme(out)))
    out = out.replace(AUTH_SCHEME, (m, scheme: string, space: string, token: string) =>
      token === REDACTED ||
      isChallengeParam(token) ||
      (scheme.toLowerCase() !== 'bearer' && !looksLikeCredential(token))
        ? m
        : `${scheme}${space}${REDACTED}`,
    );
  const assigns = !gated
    ? ASSIGNS_COOKIE | ASSIGNS_SECRET
    : (hints & HINT_ASSIGN) !== 0
      ? assignmentHints(out)
      : 0;
  if ((assigns & ASSIGNS_COOKIE) !== 0)
    out = out.replace(COOKIE_VALUE, (_m, name: string, sep: string, value: string) => {
      const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
      return `${name}${sep}${quote}${REDACTED}${quote}`;
    });
  if ((assigns & ASSIGNS_SECRET) !== 0)
    out = out.replace(SECRET_ASSIGNMENT, (m, name: string, sep: string, value: string) => {
      if (value.includes('[REDACTED')) return m;
      const quote = value.startsWith('\\"') ? '\\"' : value[0] === '"' || value[0] === "'" ? value[0] : '';
      return `${name}${sep}${quote}${REDACTED}${quote}`;
    });
  return out;
}

/** Normalized (lower-case, no `-`/`_`) names of object keys and headers whose values are secrets. */
const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'password',
  'passwd',
  'pwd',
  'pass',
  'secret',
  'apikey',
  'xapikey',
  'apisecret',
  'clientsecret',
  'privatekey',
  'secretkey',
  'secretaccesskey',
  'accesskey',
  'accesskeyid',
  'credentials',
  'credential',
  'signature',
  'xamzsignature',
  'xamzcredential',
  'sessionid',
  'xgoogapikey',
  'ocpapimsubscriptionkey',
  'connectionstring',
]);

/** True when a key or header name names a secret (`Authorization`, `set-cookie`, `x-api-key`, `*_token`, `*password*`). */
export function isSecretKey(key: string): boolean {
  // Keys repeat (the same JSON fields, the same headers): remember verdicts, within a bound.
  let verdict = KEY_VERDICTS.get(key);
  if (verdict === undefined) {
    verdict = judgeKey(key);
    if (KEY_VERDICTS.size >= 4096) KEY_VERDICTS.clear();
    KEY_VERDICTS.set(key, verdict);
  }
  return verdict;
}

const KEY_VERDICTS = new Map<string, boolean>();

function judgeKey(key: string): boolean {
  let norm = '';
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 45 || c === 95) continue;
    norm += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : key[i];
  }
  if (SECRET_KEYS.has(norm)) return true;
  return (
    norm.endsWith('token') ||
    norm.includes('password') ||
    norm.includes('secret') ||
    norm.includes('apikey') ||
    norm.includes('cookie') ||
    norm.includes('authorization')
  );
}
