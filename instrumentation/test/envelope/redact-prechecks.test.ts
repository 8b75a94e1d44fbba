import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from '../../src/redact.js';

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
    [
      'dashes and underscores that start no key stay',
      'UTF-8 rate_limit x-ratelimit',
      'UTF-8 rate_limit x-ratelimit',
    ],
  ])('%s', (_name, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});
