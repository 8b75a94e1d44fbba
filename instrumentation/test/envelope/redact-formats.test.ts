import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from '../../src/redact/redact-text.js';

// Real-world credential formats, each in the kind of sentence that carries it into error text.
// The secrets are deliberately plain (all letters, all lower case, short): the redactor must
// recognise a format by its shape, not by a random-looking run of digits and mixed case.
describe('redactText: credential formats', () => {
  it.each<[string, string, string]>([
    // AWS access key ids are AKIA/ASIA + 16 of [A-Z0-9]; an id may hold no digit at all.
    ['AWS key id, letters only', 'access key AKIAQWERTYUIOPASDFGH not found', 'AKIAQWERTYUIOPASDFGH'],
    ['AWS session key id, letters only', 'id ASIAQWERTYUIOPASDFGH expired', 'ASIAQWERTYUIOPASDFGH'],
    // {"alg":"none"}.{}. : an unsigned JWT with an empty payload is three short segments.
    ['short unsigned JWT', 'rejected eyJhbGciOiJub25lIn0.e30. here', 'eyJhbGciOiJub25lIn0.e30.'],
    ['short signed JWT', 'jwt eyJhbGci.eyJzdWI.abc', 'eyJhbGci.eyJzdWI.abc'],
    [
      'Stripe webhook secret, lower case',
      'bad whsec_abcdefghijklmnopqrstuvwxyzab',
      'whsec_abcdefghijklmnopqrstuvwxyzab',
    ],
    [
      'Stripe live key, lower case',
      'key sk_live_abcdefghijklmnopqrstuvwx',
      'sk_live_abcdefghijklmnopqrstuvwx',
    ],
    ['Stripe restricted key', 'key rk_live_51HqLyjAbCdEfGhIjKl0', 'rk_live_51HqLyjAbCdEfGhIjKl0'],
    [
      'GitHub classic token',
      'bad ghp_abcdefghijklmnopqrstuvwxyzabcdefghij',
      'ghp_abcdefghijklmnopqrstuvwxyzabcdefghij',
    ],
    [
      'GitHub OAuth token',
      'bad gho_abcdefghijklmnopqrstuvwxyzabcdefghij',
      'gho_abcdefghijklmnopqrstuvwxyzabcdefghij',
    ],
    [
      'GitHub fine-grained token',
      'bad github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ01',
    ],
    [
      'Slack bot token, letters only',
      'not_authed xoxb-abcdefghijkl-mnopqrstuv',
      'xoxb-abcdefghijkl-mnopqrstuv',
    ],
    ['Slack user token', 'invalid xoxp-1234567890-1234567890-abcdef', 'xoxp-1234567890-1234567890-abcdef'],
    [
      'Google API key',
      'API key not valid AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
      'AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe',
    ],
    [
      'OpenAI project key, lower case',
      'Incorrect sk-proj-abcdefghijklmnopqrstuv',
      'sk-proj-abcdefghijklmnopqrstuv',
    ],
    [
      'Anthropic key',
      'invalid x-api-key sk-ant-api03-abcdefghijklmnopqrst-xyz',
      'sk-ant-api03-abcdefghijklmnopqrst-xyz',
    ],
    [
      'npm token',
      'npm ERR! npm_abcdefghijklmnopqrstuvwxyzabcdefghij',
      'npm_abcdefghijklmnopqrstuvwxyzabcdefghij',
    ],
    ['GitLab token, lower case', 'denied glpat-abcdefghijklmnopqrst', 'glpat-abcdefghijklmnopqrst'],
    [
      'SendGrid key, lower case',
      'denied SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz',
      'SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz',
    ],
    [
      'Shopify admin token',
      'denied shpat_0123456789abcdef0123456789abcdef',
      'shpat_0123456789abcdef0123456789abcdef',
    ],
    [
      'Hugging Face token',
      'denied hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
      'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
    ],
    [
      'DigitalOcean token',
      'denied dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    ],
    [
      'PyPI token',
      'denied pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NTY3',
      'pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0LXV2d3h5ejAxMjM0NTY3',
    ],
    [
      'Slack webhook URL',
      'POST https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx failed',
      'abcdefghijklmnopqrstuvwx',
    ],
    [
      'Discord webhook URL',
      'POST https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz-ABCDEFGH failed',
      'abcdefghijklmnopqrstuvwxyz-ABCDEFGH',
    ],
    [
      'PEM private key',
      'bad key -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY----- given',
      'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    ],
    [
      'PEM RSA private key cut short',
      'bad key -----BEGIN RSA PRIVATE KEY-----\nmiieowibaaakcaqea',
      'miieowibaaakcaqea',
    ],
    [
      'Azure SAS signature',
      'GET https://acct.blob.core.windows.net/c/b?sv=2022-11-02&ss=b&sig=abcDEF%2Bxyz%3D',
      'abcDEF%2Bxyz%3D',
    ],
    ['password in a URL query', 'GET https://api.example.com/login?user=bob&password=hunter', 'hunter'],
    ['password in URL userinfo', 'GET https://bob:hunter@example.com/', 'hunter'],
    // Header echoes: the name does not start a credential word, only ends in one.
    ['x-api-key header echo', 'sent x-api-key: abcdefgh', 'abcdefgh'],
    ['X-Goog-Api-Key header echo', 'sent X-Goog-Api-Key: abcdefgh', 'abcdefgh'],
    ['prefixed password field', 'config db_password: hunter', 'hunter'],
    ['session id', 'bad session_id=abcdefgh', 'abcdefgh'],
    ['Set-Cookie header', 'Set-Cookie: session=abcdefgh; Path=/; HttpOnly', 'abcdefgh'],
    ['Cookie header, second cookie', 'Cookie: theme=dark; sid=abcdefgh', 'abcdefgh'],
    ['cookie in a JSON echo', '{"cookie":"theme=dark; sid=abcdefgh","host":"x"}', 'abcdefgh'],
  ])('removes %s', (_name, text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it.each<[string, string, string]>([
    [
      'a JSON echo keeps its other members',
      '{"cookie":"sid=abc","host":"x"}',
      `{"cookie":"${REDACTED}","host":"x"}`,
    ],
    ['a header echo keeps the header name', 'sent x-api-key: abcdefgh', `sent x-api-key: ${REDACTED}`],
    [
      'a URL keeps scheme, user and host',
      'GET https://bob:hunter@example.com/',
      `GET https://bob:${REDACTED}@example.com/`,
    ],
    ['a JWT after Bearer goes once', 'Bearer eyJhbGciOiJub25lIn0.e30.', `Bearer ${REDACTED}`],
    // WWW-Authenticate challenges name the failure; their parameters are not credentials.
    ['a Bearer challenge stays readable', 'Bearer error="invalid_token"', 'Bearer error="invalid_token"'],
    [
      'a Basic challenge stays readable',
      'Basic realm="api", charset="UTF-8"',
      'Basic realm="api", charset="UTF-8"',
    ],
    ['a credential named like a parameter still goes', 'Bearer error', `Bearer ${REDACTED}`],
    ['padding is not a parameter', 'Basic cmVhbG0=', `Basic ${REDACTED}`],
  ])('%s', (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each([
    'Rate limit reached for gpt-4o',
    'The eyJ prefix alone is not a token',
    'ASIAN markets closed; AKIA is a prefix',
    'shpat_ and hf_ without a body',
    'Cookie policy updated',
    'BEGIN TRANSACTION failed',
    'docs: https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
