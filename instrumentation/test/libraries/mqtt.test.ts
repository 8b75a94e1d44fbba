import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, startServer, stopServer } from './helpers.js';

// mqtt.js against Mosquitto. The shared broker on 1883 allows anonymous clients
// (/etc/mosquitto: allow_anonymous true), so a refused CONNACK comes from a private Mosquitto
// with `allow_anonymous false` and no password file: every login is "Not authorized". Mosquitto
// grants every SUBACK without an ACL plugin, so the SUBACK refusal comes from a minimal broker
// written with mqtt-packet that answers SUBACK with the failure codes of each protocol version.
const ctx = { system: 'mqtt' } as const;

describe('mqtt.js errors', () => {
  let dir = '';
  let broker: ChildProcess | undefined;
  let brokerPort = 0;
  let refusing: Server;
  let refusingPort = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fl-mqtt-'));
    chmodSync(dir, 0o755); // Mosquitto started as root reads its files as user mosquitto.
    brokerPort = await freePort();
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(
      conf,
      `listener ${brokerPort} 127.0.0.1\nallow_anonymous false\npersistence false\nlog_dest none\n`,
      {
        mode: 0o644,
      },
    );
    broker = await startServer('mosquitto', ['-c', conf], brokerPort);
    refusing = createServer((socket: Socket) => {
      socket.on('error', () => undefined);
      let version = 4;
      const parser = mqttPacket.parser({ protocolVersion: 5 });
      parser.on('packet', (packet) => {
        if (packet.cmd === 'connect') {
          version = packet.protocolVersion ?? 4;
          socket.write(
            mqttPacket.generate(
              { cmd: 'connack', returnCode: 0, reasonCode: 0, sessionPresent: false },
              { protocolVersion: version },
            ),
          );
        } else if (packet.cmd === 'subscribe') {
          // 3.1.1 §3.9.3: 0x80 Failure; 5 §3.9.3: 0x87 Not authorized.
          const granted = [version === 5 ? 0x87 : 0x80];
          socket.write(
            mqttPacket.generate(
              { cmd: 'suback', messageId: packet.messageId, granted },
              { protocolVersion: version },
            ),
          );
        }
      });
      socket.on('data', (data) => parser.parse(data));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const address = refusing.address();
    refusingPort = typeof address === 'object' && address !== null ? address.port : 0;
  });

  afterAll(async () => {
    await stopServer(broker);
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [4, '5'],
    [5, '135'],
  ])('MQTT v%i: a refused login → CONNACK %s', async (protocolVersion, code) => {
    const err = await rejectionOf(
      connectAsync(`mqtt://127.0.0.1:${brokerPort}`, {
        username: 'fl',
        password: 'wrong-pass',
        protocolVersion: protocolVersion as 4 | 5,
        reconnectPeriod: 0,
      }),
    );
    // "Connection refused: Not authorized" (3.1.1 return code 5, MQTT 5 reason code 0x87).
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'authentication', code, source: 'messaging', retryable: false });
    expect(JSON.stringify(env)).not.toContain('wrong-pass');
  });

  it.each([
    [4, 'permanent', '128'], // 0x80 Failure says nothing more: no retry, replan
    [5, 'authentication', '135'], // 0x87 Not authorized: the credential lacks the right
  ])('MQTT v%i: a refused SUBACK → %s %s', async (protocolVersion, cls, code) => {
    const client = await connectAsync(`mqtt://127.0.0.1:${refusingPort}`, {
      protocolVersion: protocolVersion as 4 | 5,
      reconnectPeriod: 0,
    });
    try {
      const err = await rejectionOf(client.subscribeAsync('secret/topic', { qos: 1 }));
      expect(classifyError(err, ctx)).toMatchObject({
        class: cls,
        code,
        source: 'messaging',
        retryable: false,
      });
    } finally {
      await client.endAsync(true);
    }
  });

  it('connection refused → ECONNREFUSED under the messaging source', async () => {
    const err = await rejectionOf(
      connectAsync(`mqtt://127.0.0.1:${await freePort()}`, { reconnectPeriod: 0 }),
    );
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'messaging',
      retryable: true,
    });
  });

  it('an invalid topic filter on the shared broker → validation', async () => {
    const client = await connectAsync('mqtt://127.0.0.1:1883', { reconnectPeriod: 0 });
    try {
      const err = await rejectionOf(client.subscribeAsync('a/#/b'));
      // '#' must be last (MQTT §4.7.1.2): mqtt.js refuses to send it; the filter must change.
      expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: 'INVALID_TOPIC' });
    } finally {
      await client.endAsync();
    }
  });
});
