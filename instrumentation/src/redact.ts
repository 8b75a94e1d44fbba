/**
 * Text redaction for envelope messages and raw strings. Secrets reach error text through URLs,
 * connection strings, echoed headers and vendor messages; an envelope travels to span storage
 * and model prompts, so anything shaped like a credential is replaced before it leaves here.
 */

import { endsWithWord, isRegExpSpace, mayAssignSecret, mayHoldSecret } from './secret-gate.js';

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
 */
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|signature|credential|authorization|auth[_-]?key|private[_-]?key|sig|key))(["']?\s*[:=]\s*)((?:Bearer|Basic|Token|Digest|Negotiate|NTLM)\s+[^\s&;,"'}\])<>]+|"[^"]*"|'[^']*'|[^\s&;,"'}\])<>]+)/gi;

/** Well-known key formats whose shape alone identifies them. */
const KNOWN_KEYS = new RegExp(
  [
    '\\b[sr]k_(?:live|test)_[A-Za-z0-9]{8,}', // Stripe secret / restricted keys
    '\\bwhsec_[A-Za-z0-9]{8,}', // Stripe webhook secrets
    '\\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}', // OpenAI, Anthropic
    '\\bgh[opusr]_[A-Za-z0-9]{20,}', // GitHub tokens
    '\\bgithub_pat_[A-Za-z0-9_]{20,}',
    '\\bxox[abposre]-[A-Za-z0-9-]{8,}', // Slack tokens
    '\\bxapp-[A-Za-z0-9-]{8,}',
    '\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b', // AWS access key ids
    '\\bAIza[0-9A-Za-z_-]{30,}', // Google API keys
    '\\bglpat-[A-Za-z0-9_-]{16,}', // GitLab
    '\\bnpm_[A-Za-z0-9]{30,}',
    '\\bSG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}', // SendGrid
    '\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*', // JWTs (signature may be empty)
  ].join('|'),
  'g',
);

/** Letters that end a KNOWN_KEYS prefix right before its first `_` (sk_ rk_ whsec_ gh?_ github_ npm_). */
const BEFORE_UNDERSCORE = 'kcopusrbm';
/** Letters that end a KNOWN_KEYS prefix right before its first `-` (sk- xox?- xapp- glpat-). */
const BEFORE_DASH = 'kabposret';

/** Whether some `sep` in `text` follows one of the `before` letters. */
function separatorAfter(text: string, sep: string, before: string): boolean {
  for (let i = text.indexOf(sep, 1); i > 0; i = text.indexOf(sep, i + 1)) {
    if (before.indexOf(text.charAt(i - 1)) >= 0) return true;
  }
  return false;
}

/**
 * Exact pre-check for KNOWN_KEYS: every pattern there has a `_` or `-` right after one of the
 * letters above, or one of the literal prefixes below, so text with none of them cannot match
 * and skips the regular expression.
 */
function mayHoldKnownKey(text: string): boolean {
  return (
    separatorAfter(text, '_', BEFORE_UNDERSCORE) ||
    separatorAfter(text, '-', BEFORE_DASH) ||
    text.indexOf('eyJ') >= 0 ||
    text.indexOf('AKIA') >= 0 ||
    text.indexOf('ASIA') >= 0 ||
    text.indexOf('AIza') >= 0 ||
    text.indexOf('SG.') >= 0
  );
}

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
    if (endsWithWord(text, space - 1, 'bearer') || looksLikeCredential(text.slice(t, end))) {
      SCHEME_BEFORE_SPACE.lastIndex = 0;
      return true;
    }
  }
  return false;
}

/** Replaces credentials in free text with `[REDACTED]`; text without any passes through unchanged. */
export function redactText(text: string): string {
  if (typeof text !== 'string' || text.length === 0) return typeof text === 'string' ? text : '';
  if (text.length < MIN_SECRET_TEXT || !mayHoldSecret(text)) return text;
  let out = mayHoldKnownKey(text) ? text.replace(KNOWN_KEYS, REDACTED) : text;
  if (out.indexOf('@') >= 0 && out.indexOf('://') >= 0)
    out = out.replace(URL_PASSWORD, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
  if (mayRedactAuthScheme(out))
    out = out.replace(AUTH_SCHEME, (m, scheme: string, space: string, token: string) =>
      token === REDACTED || (scheme.toLowerCase() !== 'bearer' && !looksLikeCredential(token))
        ? m
        : `${scheme}${space}${REDACTED}`,
    );
  if (!mayAssignSecret(out)) return out;
  out = out.replace(SECRET_ASSIGNMENT, (m, name: string, sep: string, value: string) => {
    if (value.includes('[REDACTED')) return m;
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
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
