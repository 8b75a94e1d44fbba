import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactTextUngated } from '../../src/redact/redact-text.js';
import { keyHitCanEndLikeScheme } from '../../src/redact/secret-gate.js';

// redactText skips each regular expression when an exact pre-check proves it cannot change the
// text. These cases sit on the edges of those pre-checks: each must still be redacted, or left
// alone, exactly as the expressions alone would do it.
describe('redactText pre-checks', () => {
  it.each<[string, string, string]>([
    ['Bearer before a token', 'auth failed: Bearer abc.def', `auth failed: Bearer ${REDACTED}`],
    ['Basic with a base64 credential', 'sent Basic dXNlcjpwYXNz', `sent Basic ${REDACTED}`],
    ['scheme after a tab and several spaces', 'NTLM\t  TlRMTVNTUAABAAAA1==', `NTLM\t  ${REDACTED}`],
    ['token in prose stays', 'The access token expired', 'The access token expired'],
    ['scheme glued to a word stays', 'xBearer abcdefgh1', 'xBearer abcdefgh1'],
    ['secret name before a quote and spaces', '{"api_key" :  "abc123"}', `{"api_key" :  "${REDACTED}"}`],
    ['secret name before =', 'https://h/x?sig=ABCD1234&x=1', `https://h/x?sig=${REDACTED}&x=1`],
    ['non-secret names before : and = stay', 'version="1.0" error: code=5', 'version="1.0" error: code=5'],
    ['Stripe key after an underscore check', 'key sk_live_a1B2c3D4e5F6g7H8 used', `key ${REDACTED} used`],
    ['Slack token after a dash check', 'got xoxb-1234567890-abcd', `got ${REDACTED}`],
    ['AWS key id without punctuation', 'id AKIAABCDEFGHIJ123456 x', `id ${REDACTED} x`],
    ['JWT without punctuation before it', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.sig', `jwt ${REDACTED}`],
    // The gate used to fold `_` like a letter, so these names never opened it.
    ['api_key in JSON text', '{"api_key": "abc123"}', `{"api_key": "${REDACTED}"}`],
    ['access_token in JSON text', '{"access_token":"abc"}', `{"access_token":"${REDACTED}"}`],
    // The gate tells a scheme hit from a key hit by how the hit ends: both kinds in one text.
    [
      'a key after a scheme in prose',
      'the token expired; key ghp_abcdefghijklmnopqrstuvwxyz12',
      `the token expired; key ${REDACTED}`,
    ],
    [
      'a scheme after a key prefix that is not a key',
      'BEGIN here, Bearer abc.def',
      `BEGIN here, Bearer ${REDACTED}`,
    ],
    ['a scheme name right after a key prefix', 'sk-Bearer abcdefghijklmnopq1', `sk-Bearer ${REDACTED}`],
    [
      'dashes and underscores that start no key stay',
      'UTF-8 rate_limit x-ratelimit',
      'UTF-8 rate_limit x-ratelimit',
    ],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

// The pre-checks are only worth having if they are exact: on any text, gated and ungated
// redaction agree. Texts are stitched from fragments that sit on the pre-checks' edges (prefixes
// glued to words or split by punctuation, case changes, quotes, non-ASCII), from a fixed seed.
describe('redactText pre-checks are exact', () => {
  it('tells a scheme hit from a key hit by its end: no key-prefix hit can end like a scheme name', () => {
    expect(keyHitCanEndLikeScheme()).toBe(false);
  });

  const FRAGMENTS = [
    ...['Bearer ', 'basic ', 'TOKEN ', 'Digest ', 'negotiate ', 'NTLM ', 'xBearer '],
    ...['sk_live_', 'rk_test_', 'whsec_', 'sk-proj-', 'sk-', 'ghp_', 'github_pat_', 'xoxb-', 'xapp-'],
    ...['AKIA', 'ASIA', 'AIza', 'glpat-', 'npm_', 'SG.', 'eyJ', 'shpat_', 'hf_', 'dop_v1_'],
    ...['hooks.slack.com/services/', 'discord.com/api/webhooks/', '-----BEGIN PRIVATE KEY-----'],
    ...['password', 'db_password', 'x-api-key', 'session_id', 'Set-Cookie', 'cookie', 'sig', 'key'],
    ...['://', 'postgres://u', ':', '=', '@', ' ', '  ', '\t', '\n', '"', "'", '.', '-', '_', '&', ';'],
    ...['abcdefgh', 'ABCDEFGHIJKLMNOP', '0123456789abcdef', 'e30', 'é', 'Ünïcode', 'x', 'Q', '7'],
  ];
  // mulberry32: a small deterministic generator, so a failure reproduces.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const texts: string[] = [];
  while (texts.length < 20_000) {
    let text = '';
    const parts = 2 + Math.floor(random() * 10);
    for (let i = 0; i < parts; i++) text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)];
    if (text.length >= 6) texts.push(text);
  }

  it('agree with every expression run unconditionally on 20,000 generated texts', () => {
    const disagree = texts.filter((t) => redactText(t) !== redactTextUngated(t));
    expect(disagree.slice(0, 5)).toEqual([]);
  });

  it('the generated texts do exercise redaction', () => {
    const redacted = texts.filter((t) => redactTextUngated(t) !== t).length;
    expect(redacted).toBeGreaterThan(texts.length / 4);
    expect(redacted).toBeLessThan(texts.length);
  });
});
