import { describe, expect, it } from 'vitest';
import { isSecretKey, redactText } from '../../src/redact/redact-text.js';

describe('redactText', () => {
  it.each([
    ['bearer token', 'Authorization: Bearer eyJraWQiOiJrMSJ9.payload.sig-123', 'eyJraWQiOiJrMSJ9'],
    ['short bearer token', 'sent Bearer abc.def-ghi', 'abc.def-ghi'],
    ['basic auth', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
    ['postgres url', 'connect postgres://app:hunter2@db.internal:5432/app', 'hunter2'],
    ['mysql url', 'mysql://root:s3cr3t!@127.0.0.1/test', 's3cr3t!'],
    ['mongodb+srv url', 'mongodb+srv://admin:Pa55w0rd@cluster0.abcd.mongodb.net/db', 'Pa55w0rd'],
    ['redis url, empty user', 'redis://:redispw@localhost:6379/0', 'redispw'],
    ['password with @', 'postgres://u:p@ss@host/db', 'p@ss'],
    [
      'access_token query',
      'GET https://api.example.com/v1/me?access_token=ya29.a0AfH6SM&x=1',
      'ya29.a0AfH6SM',
    ],
    ['api_key query', 'https://maps.example.com/geo?api_key=abcd1234efgh', 'abcd1234efgh'],
    ['sig query', 'https://blob.example.net/c/f?sv=2020&sig=AbCdEf%2B123%3D&se=2026', 'AbCdEf%2B123%3D'],
    [
      'aws presigned',
      'https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIAX%2F2026&X-Amz-Signature=9f8e7d6c',
      '9f8e7d6c',
    ],
    ['token= query', 'callback?token=tok_live_123456', 'tok_live_123456'],
    [
      'stripe secret key',
      'Invalid API Key provided: sk_live_51HqLyjAbCdEfGhIjKl',
      'sk_live_51HqLyjAbCdEfGhIjKl',
    ],
    [
      'openai key',
      'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUv',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUv',
    ],
    ['anthropic key', 'key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt'],
    [
      'github token',
      'token ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    ],
    [
      'slack token',
      'xoxb-123456789012-1234567890123-AbCdEfGhIjKl rejected',
      'xoxb-123456789012-1234567890123-AbCdEfGhIjKl',
    ],
    ['jwt', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.SflKxwRJSMeKKF2QT4fwpM', 'SflKxwRJSMeKKF2QT4fwpM'],
    [
      'aws access key id',
      'The AWS Access Key Id AKIAIOSFODNN7EXAMPLE does not exist',
      'AKIAIOSFODNN7EXAMPLE',
    ],
    ['libpq keywords', 'host=db user=app password=hunter2 dbname=app', 'hunter2'],
    ['ado.net', 'Server=tcp:x;User Id=sa;Password=Str0ng!Pass;Encrypt=true', 'Str0ng!Pass'],
    ['json echo', '{"user":"a","password":"hunter2"}', 'hunter2'],
    ['prose colon', 'password: hunter2', 'hunter2'],
  ])('removes %s', (_name, text, secret) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it.each([
    'Rate limit exceeded for endpoint /v1/charges',
    'Your card has insufficient funds.',
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    'duplicate key value violates unique constraint "users_email_key"',
    'Basic authentication failed for user "app"',
    '',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it('never throws on non-strings', () => {
    expect(redactText(undefined as never)).toBe('');
  });
});

describe('isSecretKey', () => {
  it.each([
    'Authorization',
    'cookie',
    'Set-Cookie',
    'x-api-key',
    'api_key',
    'password',
    'db_password',
    'client_secret',
    'access_token',
    'refreshToken',
    'X-Amz-Security-Token',
    'proxy-authorization',
  ])('%s is secret', (key) => expect(isSecretKey(key)).toBe(true));
  it.each([
    'content-type',
    'retry-after',
    'x-ratelimit-remaining-tokens',
    'max_tokens',
    'message',
    'code',
    'key',
  ])('%s is not', (key) => expect(isSecretKey(key)).toBe(false));
});
