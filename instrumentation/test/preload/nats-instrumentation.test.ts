import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, stopServer } from '../libraries/helpers.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('nats-calls.mjs', 'nats-calls.cjs');
const PRODUCER = 4;
const SCOPE = '@faultline/instrumentation-nats';
const PASSWORD = 'fl-nats-right-pass-7731';
const WRONG_PASSWORD = 'fl-nats-wrong-pass-2208';

const EXPECTED_STDOUT = [
  'connect ok',
  'reply pong',
  'no-responders 503',
  'timeout TIMEOUT',
  'publish ok',
  'bad-subject BAD_SUBJECT',
  'refused CONNECTION_REFUSED',
  'login AUTHORIZATION_VIOLATION',
  'secured ok',
  'denied PERMISSIONS_VIOLATION',
  '',
].join('\n');

/** A private nats-server with one user, who may not publish under fl.denied. */
async function startSecuredServer(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const conf = join(dir, 'nats.conf');
  writeFileSync(
    conf,
    `listen: 127.0.0.1:${port}\nauthorization {\n  users = [\n` +
      `    { user: "fl", password: "${PASSWORD}", permissions: { publish: { deny: ["fl.denied.>"] } } }\n` +
      '  ]\n}\n',
    { mode: 0o644 },
  );
  return { child: await startServer('nats-server', ['-c', conf], port), port };
}

describe('nats.js instrumentation', () => {
  let dir = '';
  let secured: { child: ChildProcess; port: number };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl-nats-'));
    chmodSync(dir, 0o755);
    secured = await startSecuredServer(dir);
  });

  afterAll(async () => {
    await stopServer(secured?.child);
    rmSync(dir, { recursive: true, force: true });
  });

  describe.each(RUNS)('under --$mode with $fixture', (run) => {
    let receiver: OtlpReceiver;
    let bare: FixtureResult;
    let preloaded: FixtureResult;
    let spans: ReceivedSpan[];

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      const env = {
        NATS_AUTH_PORT: String(secured.port),
        NATS_PASSWORD: PASSWORD,
        NATS_WRONG_PASSWORD: WRONG_PASSWORD,
        OTEL_SERVICE_NAME: `fl-nats-${run.mode}`,
      };
      [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
      spans = receiver.spans.filter((s) => s.attributes['messaging.system'] === 'nats');
    });

    afterAll(async () => {
      await receiver?.close();
    });

    /** The one span of an operation on the subject ending with `suffix`. */
    const callSpan = (operation: string, suffix: string): ReceivedSpan => {
      const found = spans.filter(
        (s) =>
          s.attributes['messaging.operation.name'] === operation &&
          String(s.attributes['messaging.destination.name']).endsWith(suffix),
      );
      expect(found, `${operation} ${suffix}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };
    const connectSpans = (port: number) =>
      spans.filter(
        (s) => s.attributes['messaging.operation.name'] === 'connect' && s.attributes['server.port'] === port,
      );

    it('leaves the output and exit code unchanged', () => {
      expect({ code: bare.code, stdout: bare.stdout }).toEqual({ code: 0, stdout: EXPECTED_STDOUT });
      expect({ code: preloaded.code, stdout: preloaded.stdout, stderr: preloaded.stderr }).toEqual({
        code: 0,
        stdout: EXPECTED_STDOUT,
        stderr: '',
      });
    });

    it('makes one span per call, with the messaging attributes', () => {
      // 4 connects, 4 requests, the application's publishes (event, empty subject) and the reply.
      expect(spans.map((s) => s.scope)).toEqual(Array(11).fill(SCOPE));
      const request = callSpan('request', '.echo');
      expect(request.kind).toBe(CLIENT);
      expect(request.name).toMatch(/^request fl\.calls\.\d+\.echo$/);
      expect(request.attributes).toMatchObject({
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'request',
        'server.address': '127.0.0.1',
        'server.port': 4222,
      });
      const publish = callSpan('publish', '.events');
      expect(publish.kind).toBe(PRODUCER);
      expect(publish.attributes).toMatchObject({
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'publish',
        'server.address': '127.0.0.1',
        'server.port': 4222,
      });
      // The responder's reply goes to the requester's inbox: a per-call subject, out of the name.
      const reply = spans.find((s) => s.attributes['messaging.destination.temporary'] === true);
      expect(reply).toMatchObject({ kind: PRODUCER, name: 'publish (temporary)' });
      expect(String(reply?.attributes['messaging.destination.name'])).toMatch(/^_INBOX\./);
      // The request's own publish is part of the request, not a call of its own.
      expect(
        spans.filter((s) => String(s.attributes['messaging.destination.name']).endsWith('.echo')),
      ).toHaveLength(1);
      expect(connectSpans(4222)).toHaveLength(1);
      expect(connectSpans(4222)[0]).toMatchObject({ kind: CLIENT, name: 'connect' });
      expect(connectSpans(secured.port)).toHaveLength(2);
    });

    it('parents a request on the active span, and the continuation keeps it', () => {
      const job = receiver.spans.find((s) => s.name === 'job');
      const after = receiver.spans.find((s) => s.name === 'after-request');
      expect(callSpan('request', '.echo').parentSpanId).toBe(job?.spanId);
      expect(after?.parentSpanId).toBe(job?.spanId);
    });

    it('leaves successes without an envelope, under the messaging source', () => {
      for (const span of [
        callSpan('request', '.echo'),
        callSpan('publish', '.events'),
        ...connectSpans(4222),
      ]) {
        expect(span.statusCode).not.toBe(STATUS_ERROR);
        expect(span.attributes['faultline.class']).toBeUndefined();
      }
      expect(callSpan('request', '.echo').attributes['faultline.source']).toBe('messaging');
      expect(connectSpans(4222)[0]?.attributes['faultline.source']).toBe('messaging');
    });

    it('classifies a request nobody subscribes to: 503 no responders, transient', () => {
      const span = callSpan('request', '.nobody');
      expect(span.statusCode).toBe(STATUS_ERROR);
      expect(span.attributes['error.type']).toBe('503');
      // Nobody listens right now (not deployed, restarting): like HTTP 503, a responder may come back.
      expect(envelopeOf(span)).toMatchObject({
        class: 'transient',
        code: '503',
        source: 'messaging',
        retryable: true,
      });
    });

    it("classifies a responder too slow for the request's timeout: TIMEOUT, transient", () => {
      const span = callSpan('request', '.slow');
      expect(span.attributes['error.type']).toBe('TIMEOUT');
      expect(envelopeOf(span)).toMatchObject({
        class: 'transient',
        code: 'TIMEOUT',
        source: 'messaging',
        retryable: true,
      });
    });

    it('classifies a publish the account may not make: PERMISSIONS_VIOLATION, authentication', () => {
      const span = callSpan('request', 'fl.denied.orders');
      expect(span.attributes).toMatchObject({
        'error.type': 'PERMISSIONS_VIOLATION',
        'server.port': secured.port,
      });
      expect(envelopeOf(span)).toMatchObject({
        class: 'authentication',
        code: 'PERMISSIONS_VIOLATION',
        source: 'messaging',
        retryable: false,
      });
    });

    it('fails the connect span of a closed port with the socket code, transient', () => {
      const refused = spans.filter((s) => s.attributes['error.type'] === 'CONNECTION_REFUSED');
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ kind: CLIENT, name: 'connect', statusCode: STATUS_ERROR });
      expect(refused[0]?.attributes['server.address']).toBe('127.0.0.1');
      expect(envelopeOf(refused[0])).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'messaging',
        retryable: true,
      });
    });

    it('fails the connect span of a wrong password: AUTHORIZATION_VIOLATION, authentication', () => {
      const [login, ok] = [...connectSpans(secured.port)]
        .sort((a, b) => a.statusCode - b.statusCode)
        .reverse();
      expect(login?.attributes['error.type']).toBe('AUTHORIZATION_VIOLATION');
      expect(envelopeOf(login)).toMatchObject({
        class: 'authentication',
        code: 'AUTHORIZATION_VIOLATION',
        source: 'messaging',
        retryable: false,
      });
      expect(ok?.statusCode).not.toBe(STATUS_ERROR);
      expect(ok?.attributes['server.address']).toBe('127.0.0.1');
    });

    it('fails the span of a publish nats.js refuses (empty subject): BAD_SUBJECT, validation', () => {
      const empty = spans.filter(
        (s) =>
          s.attributes['messaging.operation.name'] === 'publish' &&
          s.attributes['messaging.destination.name'] === '',
      );
      expect(empty).toHaveLength(1);
      expect(empty[0]).toMatchObject({ kind: PRODUCER, statusCode: STATUS_ERROR });
      expect(empty[0]?.attributes['error.type']).toBe('BAD_SUBJECT');
      // The call itself is malformed.
      expect(envelopeOf(empty[0])).toMatchObject({
        class: 'validation',
        code: 'BAD_SUBJECT',
        source: 'messaging',
        retryable: false,
      });
    });

    it('sends no credential anywhere', () => {
      for (const request of receiver.requests) {
        expect(request.body.includes(PASSWORD)).toBe(false);
        expect(request.body.includes(WRONG_PASSWORD)).toBe(false);
      }
      expect(JSON.stringify(receiver.spans)).not.toMatch(/fl-nats-(right|wrong)-pass|fl:fl-/);
    });
  });
});
