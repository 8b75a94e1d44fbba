import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyHttpResponse } from '../../src/http/classify-http-response.js';
import type { Envelope } from '../../src/types.js';

/** What the local server answers on /case/<name>, and what classifying it must give. */
interface ServedCase {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string;
  want: Partial<Envelope> | null;
}

const json = (value: unknown): string => JSON.stringify(value);
const JSON_HEADERS = { 'content-type': 'application/json' };

const served: Record<string, ServedCase> = {
  ok: { status: 200, headers: JSON_HEADERS, body: json({ id: 1 }), want: null },
  'no-content': { status: 204, want: null },
  redirect: { status: 302, headers: { location: '/case/ok' }, body: '', want: null },
  'bad-request': {
    status: 400,
    headers: JSON_HEADERS,
    body: json({ message: 'name is required' }),
    want: { class: 'validation', code: '400', message: 'name is required' },
  },
  unauthorized: {
    status: 401,
    headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    want: { class: 'authentication', code: '401' },
  },
  'github-403-rate-limit': {
    status: 403,
    headers: {
      ...JSON_HEADERS,
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
    },
    body: json({ message: 'API rate limit exceeded for user ID 1.' }),
    want: { class: 'rate_limit', code: '403', retryable: true },
  },
  'not-found': { status: 404, want: { class: 'permanent', code: '404', retryable: false } },
  unprocessable: {
    status: 422,
    headers: JSON_HEADERS,
    body: json({ message: 'Validation Failed' }),
    want: { class: 'validation', code: '422' },
  },
  'too-many-seconds': {
    status: 429,
    headers: { 'retry-after': '7' },
    want: { class: 'rate_limit', retry_after: 7 },
  },
  'too-many-date': {
    status: 429,
    headers: { 'retry-after': new Date(Date.now() + 120_000).toUTCString() },
    want: { class: 'rate_limit' },
  },
  'quota-429': {
    status: 429,
    headers: JSON_HEADERS,
    body: json({
      error: {
        message: 'You exceeded your current quota',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    }),
    want: { class: 'permanent', code: 'insufficient_quota', retryable: false, retry_after: null },
  },
  'server-error': { status: 500, want: { class: 'transient', code: '500', retryable: true } },
  'bad-gateway-html': {
    status: 502,
    headers: { 'content-type': 'text/html' },
    body: '<html><head><title>502 Bad Gateway</title></head></html>',
    want: { class: 'transient', code: '502', message: '502 Bad Gateway' },
  },
  unavailable: {
    status: 503,
    headers: { 'retry-after': '3' },
    body: 'down for maintenance',
    want: { class: 'transient', retry_after: 3 },
  },
  'should-not-retry': {
    status: 503,
    headers: { 'x-should-retry': 'false' },
    want: { class: 'transient', retryable: false, retry_after: null },
  },
  'aws-throttle-400': {
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'R1' },
    body: json({ __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate exceeded' }),
    want: { class: 'rate_limit', code: 'ThrottlingException' },
  },
  's3-slowdown': {
    status: 503,
    headers: { 'content-type': 'application/xml' },
    body: '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
    want: { class: 'rate_limit', code: 'SlowDown' },
  },
  'slack-200': {
    status: 200,
    headers: JSON_HEADERS,
    body: json({ ok: false, error: 'invalid_auth' }),
    want: { class: 'authentication', code: 'invalid_auth' },
  },
  'graphql-200': {
    status: 200,
    headers: JSON_HEADERS,
    body: json({ data: null, errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] }),
    want: { class: 'rate_limit', code: 'THROTTLED' },
  },
  'problem-409': {
    status: 409,
    headers: { 'content-type': 'application/problem+json' },
    body: json({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'version_conflict',
      retryable: true,
      retry_after: 0,
    }),
    want: { class: 'transient', code: 'version_conflict', retryable: true, retry_after: 0 },
  },
  'overloaded-529': {
    status: 529,
    headers: JSON_HEADERS,
    body: json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    want: { class: 'transient', message: 'Overloaded' },
  },
  'cookie-echo': {
    status: 500,
    headers: { 'set-cookie': ['sid=S3cretSess10n; HttpOnly', 'b=2'] },
    want: { class: 'transient' },
  },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const c = served[(req.url ?? '').replace('/case/', '')];
    if (!c) {
      res.writeHead(500).end('unknown case');
      return;
    }
    res.writeHead(c.status, c.headers);
    res.end(c.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function viaFetch(name: string): Promise<Envelope | null> {
  const res = await fetch(`${base}/case/${name}`, { redirect: 'manual' });
  return classifyHttpResponse({ status: res.status, headers: res.headers, body: await res.text() });
}

async function viaNodeHttp(name: string): Promise<Envelope | null> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${base}/case/${name}`, resolve).on('error', reject);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return classifyHttpResponse({
    status: res.statusCode ?? 0,
    headers: res.headers,
    body: Buffer.concat(chunks),
  });
}

async function viaRawHeaders(name: string): Promise<Envelope | null> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(`${base}/case/${name}`, resolve).on('error', reject);
  });
  res.resume();
  await once(res, 'end');
  return classifyHttpResponse({ status: res.statusCode ?? 0, headers: res.rawHeaders });
}

describe.each([
  ['fetch', viaFetch],
  ['node:http', viaNodeHttp],
])('a real local server, called with %s', (_client, call) => {
  it.each(Object.keys(served))('%s', async (name) => {
    const env = await call(name);
    const want = served[name]?.want;
    if (want === null || want === undefined) expect(env).toBeNull();
    else {
      expect(env).toMatchObject({ source: 'http', ...want });
      expect(JSON.stringify(env)).not.toContain('S3cretSess10n');
    }
  });

  it('reads a Retry-After HTTP-date as seconds from now', async () => {
    const env = await call('too-many-date');
    expect(env?.retry_after).toBeGreaterThanOrEqual(115);
    expect(env?.retry_after).toBeLessThanOrEqual(121);
  });
});

describe('node:http rawHeaders (flat array) without a body', () => {
  it('classifies status and headers', async () => {
    expect(await viaRawHeaders('too-many-seconds')).toMatchObject({ class: 'rate_limit', retry_after: 7 });
    expect(await viaRawHeaders('aws-throttle-400')).toMatchObject({ class: 'validation', code: '400' });
  });
});
