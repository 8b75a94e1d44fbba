import { Kafka, KafkaJSProtocolError, KafkaJSSASLAuthenticationError, logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf } from './helpers.js';

// No Kafka broker can run here. The connection failure is real (a producer against a closed
// port); broker-side failures use kafkajs's own classes, built the way its protocol decoder
// builds them from the broker's error code (kafkajs src/protocol/error.js).
const ctx = { system: 'kafka' } as const;
type ProtocolInit = ConstructorParameters<typeof KafkaJSProtocolError>[0];
const protocolError = (init: { type: string; code: number; retriable: boolean; message: string }) =>
  new KafkaJSProtocolError(init as unknown as ProtocolInit);

describe('kafkajs errors', () => {
  it('a producer against a closed port → ECONNREFUSED beneath KafkaJSNumberOfRetriesExceeded', async () => {
    const kafka = new Kafka({
      brokers: [`127.0.0.1:${await freePort()}`],
      retry: { retries: 0 },
      connectionTimeout: 500,
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer();
    const err = await rejectionOf(producer.connect());
    // The broker is unreachable: the socket code names it, like every driver's.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'messaging',
      retryable: true,
    });
    await producer.disconnect();
  });

  it.each([
    // NOT_LEADER_FOR_PARTITION (6): leadership moved; the client refreshes metadata and retries.
    [{ type: 'NOT_LEADER_FOR_PARTITION', code: 6, retriable: true, message: 'not the leader' }, 'transient'],
    // TOPIC_AUTHORIZATION_FAILED (29): an ACL refuses the principal.
    [
      { type: 'TOPIC_AUTHORIZATION_FAILED', code: 29, retriable: false, message: 'Not authorized' },
      'authentication',
    ],
    // MESSAGE_TOO_LARGE (10): the record must shrink.
    [{ type: 'MESSAGE_TOO_LARGE', code: 10, retriable: false, message: 'too large' }, 'validation'],
    // TOPIC_ALREADY_EXISTS (36): creating it again will not succeed; replan.
    [{ type: 'TOPIC_ALREADY_EXISTS', code: 36, retriable: false, message: 'exists' }, 'permanent'],
  ])('protocol error %o → %s', (init, cls) => {
    expect(classifyError(protocolError(init), ctx)).toMatchObject({
      class: cls,
      code: init.type,
      source: 'messaging',
    });
  });

  it('SASL authentication failure → authentication', () => {
    // kafkajs's typings declare no constructor arguments; its class takes (message) like the others.
    const SaslError = KafkaJSSASLAuthenticationError as unknown as new (message: string) => Error;
    const err = new SaslError('SASL PLAIN authentication failed: Authentication failed');
    expect(classifyError(err, ctx)).toMatchObject({ class: 'authentication', retryable: false });
  });
});
