import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { subackRefusal } from '../../src/preload/clients/mqtt/mqtt-spans.js';
import { freePort, startServer, stopServer } from '../libraries/helpers.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('mqtt-calls.mjs', 'mqtt-calls.cjs');
const PRODUCER = 4;
const SCOPE = '@faultline/instrumentation-mqtt';
const WRONG_PASSWORD = 'fl-mqtt-wrong-pass-4410';

const EXPECTED_STDOUT = [
  'connect ok',
  'publish ok',
  'publish-async ok',
  'subscribe ok',
  'invalid-topic Invalid topic a/#/b',
  'login 5 Connection refused: Not authorized',
  'refused ECONNREFUSED',
  'suback-v5 Subscribe error: Not authorized',
  'suback-v4 Subscribe error: Unspecified error',
  '',
].join('\n');

/**
 * Mosquitto grants every SUBACK without an ACL plugin, so the refusal comes from a minimal broker
 * that accepts every login and refuses every filter: 3.1.1 §3.9.3 0x80 Failure, 5 §3.9.3 0x87
 * Not authorized (as test/libraries/mqtt.test.ts does).
 */
async function startRefusingBroker(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    let version = 4;
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    const send = (packet: Parameters<typeof mqttPacket.generate>[0]) =>
      socket.write(mqttPacket.generate(packet, { protocolVersion: version }));
    parser.on('packet', (packet) => {
      if (packet.cmd === 'connect') {
        version = packet.protocolVersion ?? 4;
        send({ cmd: 'connack', returnCode: 0, reasonCode: 0, sessionPresent: false });
      } else if (packet.cmd === 'subscribe') {
        send({ cmd: 'suback', messageId: packet.messageId, granted: [version === 5 ? 0x87 : 0x80] });
      } else if (packet.cmd === 'disconnect') socket.end();
    });
    socket.on('data', (data) => parser.parse(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0 };
}

/** A private Mosquitto that admits nobody (no anonymous clients, no password file). */
async function startClosedMosquitto(dir: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous false\npersistence false\nlog_dest none\n`,
    {
      mode: 0o644,
    },
  );
  return { child: await startServer('mosquitto', ['-c', conf], port), port };
}

describe('MQTT.js instrumentation', () => {
  let dir = '';
  let mosquitto: { child: ChildProcess; port: number };
  let refusing: { server: Server; port: number };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl-mqtt-'));
    chmodSync(dir, 0o755); // Mosquitto started as root reads its files as user mosquitto.
    mosquitto = await startClosedMosquitto(dir);
    refusing = await startRefusingBroker();
  });

  afterAll(async () => {
    await stopServer(mosquitto?.child);
    await new Promise<void>((resolve) => (refusing ? refusing.server.close(() => resolve()) : resolve()));
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
        MQTT_AUTH_PORT: String(mosquitto.port),
        MQTT_SUBACK_PORT: String(refusing.port),
        MQTT_WRONG_PASSWORD: WRONG_PASSWORD,
        OTEL_SERVICE_NAME: `fl-mqtt-${run.mode}`,
      };
      [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
      spans = receiver.spans.filter((s) => s.attributes['messaging.system'] === 'mqtt');
    });

    afterAll(async () => {
      await receiver?.close();
    });

    const byOperation = (operation: string, port?: number) =>
      spans.filter(
        (s) =>
          s.attributes['messaging.operation.name'] === operation &&
          (port === undefined || s.attributes['server.port'] === port),
      );
    /** The one span of an operation on the topic ending with `suffix`. */
    const callSpan = (operation: string, suffix: string, port?: number): ReceivedSpan => {
      const found = byOperation(operation, port).filter((s) =>
        String(s.attributes['messaging.destination.name']).endsWith(suffix),
      );
      expect(found, `${operation} ${suffix}`).toHaveLength(1);
      return found[0] as ReceivedSpan;
    };

    it('leaves the output and exit code unchanged', () => {
      expect({ code: bare.code, stdout: bare.stdout }).toEqual({ code: 0, stdout: EXPECTED_STDOUT });
      expect({ code: preloaded.code, stdout: preloaded.stdout, stderr: preloaded.stderr }).toEqual({
        code: 0,
        stdout: EXPECTED_STDOUT,
        stderr: '',
      });
    });

    it('makes one span per call, with the messaging attributes', () => {
      // 5 connects, 2 publishes, 4 subscribes.
      expect(spans.map((s) => s.scope)).toEqual(Array(11).fill(SCOPE));
      expect(byOperation('connect')).toHaveLength(5);
      expect(byOperation('publish')).toHaveLength(2);
      expect(byOperation('subscribe')).toHaveLength(4);
      const connect = byOperation('connect', 1883);
      expect(connect).toHaveLength(1);
      expect(connect[0]).toMatchObject({ kind: CLIENT, name: 'connect' });
      expect(connect[0]?.attributes['server.address']).toBe('127.0.0.1');
      for (const suffix of ['/events', '/async']) {
        const publish = callSpan('publish', suffix);
        expect(publish.kind).toBe(PRODUCER);
        expect(publish.name).toMatch(/^publish fl\/calls\/\d+\//);
        expect(publish.attributes).toMatchObject({
          'messaging.system': 'mqtt',
          'messaging.operation.type': 'send',
          'server.address': '127.0.0.1',
          'server.port': 1883,
        });
      }
      const subscribe = callSpan('subscribe', '/in');
      expect(subscribe.kind).toBe(CLIENT);
      expect(subscribe.name).toMatch(/^subscribe fl\/calls\/\d+\/in$/);
      expect(subscribe.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'server.port': 1883 });
    });

    it('parents a publish on the active span, and runs its callback in that context', () => {
      const job = receiver.spans.find((s) => s.name === 'job');
      const after = receiver.spans.find((s) => s.name === 'after-publish');
      expect(callSpan('publish', '/events').parentSpanId).toBe(job?.spanId);
      expect(after?.parentSpanId).toBe(job?.spanId);
    });

    it('leaves successes without an envelope, under the messaging source', () => {
      const successes = [
        ...byOperation('connect', 1883),
        ...byOperation('connect', refusing.port),
        callSpan('publish', '/events'),
        callSpan('publish', '/async'),
        callSpan('subscribe', '/in'),
      ];
      expect(successes).toHaveLength(6);
      for (const span of successes) {
        expect(span.statusCode).not.toBe(STATUS_ERROR);
        expect(span.attributes['faultline.class']).toBeUndefined();
      }
      expect(callSpan('subscribe', '/in').attributes['faultline.source']).toBe('messaging');
      expect(byOperation('connect', 1883)[0]?.attributes['faultline.source']).toBe('messaging');
    });

    it('fails the connect span of a refused login: CONNACK 5, authentication', () => {
      const [login] = byOperation('connect', mosquitto.port);
      expect(login).toMatchObject({ kind: CLIENT, statusCode: STATUS_ERROR });
      expect(login?.attributes).toMatchObject({ 'error.type': '5', 'server.address': '127.0.0.1' });
      expect(envelopeOf(login)).toMatchObject({
        class: 'authentication',
        code: '5',
        source: 'messaging',
        retryable: false,
      });
    });

    it('fails the connect span of a closed port with the socket code, transient', () => {
      const refused = spans.filter((s) => s.attributes['error.type'] === 'ECONNREFUSED');
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ kind: CLIENT, name: 'connect', statusCode: STATUS_ERROR });
      expect(envelopeOf(refused[0])).toMatchObject({
        class: 'transient',
        code: 'ECONNREFUSED',
        source: 'messaging',
        retryable: true,
      });
    });

    it('fails the subscribe span of a filter MQTT.js refuses to send: validation', () => {
      const span = callSpan('subscribe', 'a/#/b');
      expect(span.statusCode).toBe(STATUS_ERROR);
      expect(envelopeOf(span)).toMatchObject({
        class: 'validation',
        code: 'INVALID_TOPIC',
        source: 'messaging',
        retryable: false,
      });
    });

    it('fails the subscribe span of a refused SUBACK with its reason code', () => {
      const refusals = byOperation('subscribe', refusing.port);
      expect(refusals).toHaveLength(2);
      const byCode = Object.fromEntries(refusals.map((s) => [String(s.attributes['error.type']), s]));
      // MQTT 5: 0x87 Not authorized, the credential lacks the right.
      expect(envelopeOf(byCode['135'])).toMatchObject({
        class: 'authentication',
        code: '135',
        source: 'messaging',
        retryable: false,
      });
      // MQTT 3.1.1: 0x80 Failure says nothing more: no retry.
      expect(envelopeOf(byCode['128'])).toMatchObject({
        class: 'permanent',
        code: '128',
        source: 'messaging',
        retryable: false,
      });
      for (const span of refusals) {
        expect(span).toMatchObject({
          kind: CLIENT,
          name: 'subscribe secret/topic',
          statusCode: STATUS_ERROR,
        });
      }
    });

    it('sends no credential anywhere', () => {
      for (const request of receiver.requests) expect(request.body.includes(WRONG_PASSWORD)).toBe(false);
      expect(JSON.stringify(receiver.spans)).not.toMatch(/fl-mqtt-wrong-pass|fl:/);
    });
  });
});

// MQTT.js 5.16 rejects a refused SUBACK with ErrorWithSubackPacket (above); earlier 5.x releases
// called back with no error and the failure code as the granted qos. The error built for those
// must classify as MQTT.js's own does.
describe('a SUBACK refusal handed over as granted entries', () => {
  it.each([
    [0x80, 'permanent', '128'],
    [0x87, 'authentication', '135'],
  ])('qos %i → %s %s', (qos, cls, code) => {
    const err = subackRefusal([
      { topic: 'ok/topic', qos: 1 },
      { topic: 'secret/topic', qos },
    ]);
    expect(err?.name).toBe('ErrorWithSubackPacket');
    expect(classifyError(err, { system: 'mqtt' })).toMatchObject({ class: cls, code, source: 'messaging' });
  });

  it('is no refusal when every filter was granted', () => {
    expect(
      subackRefusal([
        { topic: 'a', qos: 0 },
        { topic: 'b', qos: 2 },
      ]),
    ).toBeUndefined();
    expect(subackRefusal(undefined)).toBeUndefined();
  });
});
