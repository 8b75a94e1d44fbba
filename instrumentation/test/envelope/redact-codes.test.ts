import { describe, expect, it } from 'vitest';
import { redactText, redactTextUngated } from '../../src/redact/redact-text.js';

// A vendor code is one word of word characters: its only word start is its first character.
// Codes, keys that are themselves one word, and near misses must come out
// exactly as the expressions alone would leave them.
describe('redactText on codes (word characters only)', () => {
  const WORDS = ['rate_limit_exceeded', 'THROTTLED', 'tokens', 'Token_x', 'bearer_1', 'BasicAuth', 'ntlm'];
  const KEYS = [
    'sk_live_a1B2c3D4e5F6g7H8',
    'rk_test_a1B2c3D4e5F6',
    'whsec_abcdefgh12',
    'ghp_abcdefghijklmnopqrstuvwxyz',
    'github_pat_abcdefghijklmnopqrstuvwxyz_0123',
    'AKIAABCDEFGHIJ123456',
    'ASIAABCDEFGHIJ123456',
    'AIzaabcdefghijklmnopqrstuvwxyz0123456',
    'npm_abcdefghijklmnopqrstuvwxyz0123456',
    'hf_abcdefghijklmnopqrstuvwxyz0123456',
    'shpat_0123456789abcdef0123456789abcdef',
    'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  ];
  const texts: string[] = [];
  for (const w of [...WORDS, ...KEYS]) {
    texts.push(w, `x${w}`, `${w}_tail`, `_${w}`, `0${w}`, w.toUpperCase(), w.toLowerCase(), w.slice(0, 7));
  }

  it('agree with every expression run unconditionally', () => {
    const disagree = texts.filter((t) => redactText(t) !== redactTextUngated(t));
    expect(disagree).toEqual([]);
  });

  it('still redact a key that is the whole text', () => {
    for (const key of KEYS) expect(redactText(key)).not.toContain(key.slice(8));
  });
});
