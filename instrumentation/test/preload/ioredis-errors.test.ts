import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { dbClientSpans, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('ioredis-errors.mjs', 'ioredis-errors.cjs');

const PASSWORD = 'fl-ior-Auth-pw-7731';

const AUTH_MESSAGE =
  'ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?';
const MAX_RETRIES_MESSAGE =
  'Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest" option for details.';

const EXPECTED_STDOUT = [
  'set ok=OK',
  'get ok=a string',
  'wrongtype ReplyError: WRONGTYPE Operation against a key holding the wrong kind of value',
  'noscript ReplyError: NOSCRIPT No matching script. Please use EVAL.',
  "unknown ReplyError: ERR unknown command 'fl_ior_nosuch', with args beginning with: 'fl_ior_arg' ",
  `auth ReplyError: ${AUTH_MESSAGE}`,
  'auth-configured ok=a string',
  'ended connection ECONNREFUSED',
  'closed Error: Connection is closed.',
  'closed-again Error: Connection is closed.',
  'retrying connection ECONNREFUSED',
  `max-retries MaxRetriesPerRequestError: ${MAX_RETRIES_MESSAGE}`,
  'del ok=1',
  'request 200',
  '',
].join('\n');

/**
 * Forwards OTLP exports to the receiver and keeps the raw bodies: the receiver decodes only span
 * attributes, while a password could also ride in exception events or status messages.
 */
async function startRecordingProxy(
  target: string,
): Promise<{ url: string; bodies: Buffer[]; server: Server }> {
  const bodies: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      bodies.push(body);
      const forwarded = await fetch(`${target}${req.url}`, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body,
      });
      res.writeHead(forwarded.status).end(Buffer.from(await forwarded.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

function raw(span: ReceivedSpan | undefined): unknown {
  return JSON.parse(String(envelopeOf(span).raw));
}

describe.concurrent.each(RUNS)('ioredis against Redis under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];
  const named = (name: string) => spans.filter((s) => s.name === name);
  const byStatement = (text: string) => spans.find((s) => s.attributes['db.query.text'] === text);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    proxy = await startRecordingProxy(receiver.url);
    const env = { IOREDIS_PASSWORD: PASSWORD, OTEL_SERVICE_NAME: `fl-ior-${run.mode}` };
    [bare, preloaded] = await runBareAndPreloaded(run, env, proxy.url);
    spans = dbClientSpans(receiver.spans, 'redis');
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.server.close(resolve));
    await receiver?.close();
  });

  it('leaves the output and exit code unchanged', () => {
    const expected = { code: 3, stdout: EXPECTED_STDOUT, stderr: '' };
    expect({ code: bare.code, stdout: bare.stdout, stderr: bare.stderr }).toEqual(expected);
    expect({ code: preloaded.code, stdout: preloaded.stdout, stderr: preloaded.stderr }).toEqual(expected);
  });

  it('classifies WRONGTYPE from the ReplyError, with its command name', () => {
    const span = named('lpush')[0];
    expect(span?.statusCode).toBe(STATUS_ERROR);
    expect(envelopeOf(span)).toMatchObject({
      class: 'validation',
      source: 'db',
      code: 'WRONGTYPE',
      retryable: false,
      message: 'WRONGTYPE Operation against a key holding the wrong kind of value',
    });
    expect(raw(span)).toEqual({ name: 'ReplyError', command: 'lpush', code: 'WRONGTYPE' });
  });

  it('classifies NOSCRIPT from EVALSHA', () => {
    const span = named('evalsha')[0];
    expect(envelopeOf(span)).toMatchObject({
      class: 'validation',
      code: 'NOSCRIPT',
      retryable: false,
      message: 'NOSCRIPT No matching script. Please use EVAL.',
    });
    expect(raw(span)).toEqual({ name: 'ReplyError', command: 'evalsha', code: 'NOSCRIPT' });
  });

  it('classifies an unknown command as validation', () => {
    const span = named('fl_ior_nosuch')[0];
    const envelope = envelopeOf(span);
    expect(envelope).toMatchObject({ class: 'validation', code: 'ERR', retryable: false });
    expect(envelope.message).toMatch(/^ERR unknown command 'fl_ior_nosuch', with args beginning with: /);
    expect(raw(span)).toEqual({ name: 'ReplyError', command: 'fl_ior_nosuch', code: 'ERR' });
  });

  it('classifies AUTH to a server without a password as authentication, without the password', () => {
    const span = named('auth')[0];
    expect(envelopeOf(span)).toMatchObject({
      class: 'authentication',
      code: 'ERR',
      retryable: false,
      message: AUTH_MESSAGE,
    });
    expect(raw(span)).toEqual({ name: 'ReplyError', command: 'auth', code: 'ERR' });
  });

  it('exports no password: not in attributes, events or status messages', () => {
    // The client given `password` sends it in HELLO … AUTH default <password> at connect.
    expect(named('auth')).toHaveLength(1);
    expect(named('hello').length).toBeGreaterThanOrEqual(1);
    // The bodies are searchable as they are: the server's own text is found in them.
    expect(Buffer.concat(proxy.bodies).includes('called without any password configured')).toBe(true);
    expect(JSON.stringify(receiver.spans)).not.toContain(PASSWORD);
    for (const body of proxy.bodies) expect(body.includes(PASSWORD)).toBe(false);
  });

  it('classifies the closed port with retryStrategy null as CONNECTION_CLOSED', () => {
    const span = byStatement('get fl_ior_closed_first');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'CONNECTION_CLOSED',
      retryable: true,
      message: 'Connection is closed.',
    });
    expect(raw(span)).toEqual({ name: 'Error' });
  });

  it('ends and classifies a command sent after the client ended, which ioredis rejects at once', () => {
    const span = byStatement('get fl_ior_closed_again');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'CONNECTION_CLOSED',
      retryable: true,
      message: 'Connection is closed.',
    });
  });

  it('classifies maxRetriesPerRequest exhaustion by the error class ioredis threw', () => {
    const span = byStatement('get fl_ior_max_retries');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'MaxRetriesPerRequestError',
      retryable: true,
      message: MAX_RETRIES_MESSAGE,
    });
    expect(raw(span)).toEqual({ name: 'MaxRetriesPerRequestError' });
  });

  it('leaves successful commands unclassified, with the correlation id', () => {
    const ok = [...named('set'), ...named('get').filter((s) => s.statusCode !== STATUS_ERROR)];
    expect(ok.length).toBeGreaterThanOrEqual(3);
    for (const span of ok) {
      expect(span.statusCode).not.toBe(STATUS_ERROR);
      expect(envelopeOf(span)).toEqual({ source: 'db', correlation_id: span.traceId });
    }
  });
});
