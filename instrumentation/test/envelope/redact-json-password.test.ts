import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { classifyHttpResponse } from '../../src/http/classify-http-response.js';
import { redactText, redactTextUngated } from '../../src/redact/redact-text.js';

/**
 * JSON `"password": "…"` pairs inside messages (issue #10): SDKs print the request or response
 * body into their error text — graphql-request's ClientError message is JSON.stringify of the
 * request, variables included — so a password arrives as a JSON pair, sometimes with escaped
 * quotes in the value, sometimes as JSON printed inside a JSON string.
 */

const SECRET = 'Pl4nted pass"word';

const cases: [string, string, string][] = [
  ['a spaced pair', '{"password": "hunter2 and more"}', '{"password": "[REDACTED]"}'],
  ['a tight pair', '{"password":"hunter2"}', '{"password":"[REDACTED]"}'],
  ['spaces around the colon', '{"password" : "p@ss w0rd!"}', '{"password" : "[REDACTED]"}'],
  ['an escaped quote in the value', '{"password":"a\\"b c"}', '{"password":"[REDACTED]"}'],
  [
    'JSON printed inside a JSON string',
    '{\\"password\\":\\"hunter2\\"}',
    '{\\"password\\":\\"[REDACTED]\\"}',
  ],
  [
    'escaped JSON with spaces',
    'body: {\\"password\\": \\"hunter 2\\"}',
    'body: {\\"password\\": \\"[REDACTED]\\"}',
  ],
  ['a prefixed key', '{"new_password":"abcd efgh","x":1}', '{"new_password":"[REDACTED]","x":1}'],
  ['a capitalised key', '{"Password": "x y"}', '{"Password": "[REDACTED]"}'],
  ['passwd', '{"passwd": "aa bb"}', '{"passwd": "[REDACTED]"}'],
  [
    'the keys around it',
    '{"user":"alice","password":"s3 cret","remember":true}',
    '{"user":"alice","password":"[REDACTED]","remember":true}',
  ],
];

describe('redactText: JSON password pairs', () => {
  for (const [what, input, output] of cases) {
    it(`redacts ${what}`, () => {
      expect(redactText(input)).toBe(output);
      // The pre-check gate must let every such pair through: gated and ungated agree.
      expect(redactTextUngated(input)).toBe(output);
    });
  }

  it('leaves a password field without a value alone', () => {
    const text = 'the "password" field is required';
    expect(redactText(text)).toBe(text);
  });

  it('classifyError: a JSON password in an error message never reaches the envelope', () => {
    const err = new Error(
      `Request failed: {"query":"mutation","variables":{"password":${JSON.stringify(SECRET)}}}`,
    );
    const text = JSON.stringify(classifyError(err));
    expect(text).not.toContain('Pl4nted');
  });

  it('classifyError: an escaped JSON password (JSON inside a JSON message) is redacted', () => {
    const inner = JSON.stringify({ password: SECRET });
    const err = new Error(`GraphQL Error: ${JSON.stringify({ request: inner })}`);
    expect(JSON.stringify(classifyError(err))).not.toContain('Pl4nted');
  });

  it('classifyHttpResponse: a text body echoing the pair is redacted in message and raw', () => {
    const env = classifyHttpResponse({
      status: 400,
      body: `invalid payload {"password": ${JSON.stringify(SECRET)}}`,
    });
    expect(JSON.stringify(env)).not.toContain('Pl4nted');
  });
});
