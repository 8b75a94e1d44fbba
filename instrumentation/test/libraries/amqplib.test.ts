import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { freePort, rejectionOf, uniqueName } from './helpers.js';

// amqplib against the real RabbitMQ on 127.0.0.1:5672 (guest/guest). A broker-closed channel
// rejects with the AMQP 0-9-1 reply code in `code`; a refused login only says it in the message.
const ctx = { system: 'rabbitmq' } as const;
const URL = 'amqp://guest:guest@127.0.0.1:5672';

describe('amqplib errors, real RabbitMQ', () => {
  let conn: amqp.ChannelModel;

  beforeAll(async () => {
    conn = await amqp.connect(URL);
    conn.on('error', () => undefined);
  });

  afterAll(async () => {
    await conn.close();
  });

  async function channel(): Promise<amqp.Channel> {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    return ch;
  }

  it('passive declare of a missing queue → 404 NOT_FOUND', async () => {
    const err = await rejectionOf((await channel()).checkQueue(uniqueName('missing')));
    // The queue does not exist: declaring it (a different call) is the fix, not a retry.
    const env = classifyError(err, ctx);
    expect(env).toMatchObject({ class: 'permanent', code: '404', source: 'messaging', retryable: false });
    expect(env.raw).toMatchObject({ reply: 'NOT-FOUND', classId: 50, methodId: 10 });
  });

  it('declaring a queue under the reserved amq. prefix → 403 ACCESS_REFUSED', async () => {
    const err = await rejectionOf((await channel()).assertQueue(`amq.${uniqueName('q')}`));
    // access-refused: the user may not do this; a person must grant it or the name must change.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'authentication', code: '403', retryable: false });
  });

  it('redeclaring a queue with other arguments → 406 PRECONDITION_FAILED', async () => {
    const name = uniqueName('q');
    const ch = await channel();
    await ch.assertQueue(name, { durable: false, autoDelete: true });
    const err = await rejectionOf(ch.assertQueue(name, { durable: true }));
    // inequivalent arg 'durable': the request contradicts the queue as it exists; repair it.
    expect(classifyError(err, ctx)).toMatchObject({ class: 'validation', code: '406', retryable: false });
    const cleanup = await channel();
    await cleanup.deleteQueue(name);
    await cleanup.close();
  });

  it('a wrong password → 403 ACCESS_REFUSED from the handshake', async () => {
    const err = await rejectionOf(amqp.connect('amqp://guest:wrong-password@127.0.0.1:5672'));
    // "Login was refused": the credential, never the load. No ctx: the text alone is amqplib's.
    const env = classifyError(err);
    expect(env).toMatchObject({
      class: 'authentication',
      code: '403',
      source: 'messaging',
      retryable: false,
    });
    expect(JSON.stringify(env)).not.toContain('wrong-password');
  });

  it('connection refused → ECONNREFUSED under the messaging source', async () => {
    const err = await rejectionOf(amqp.connect(`amqp://guest:guest@127.0.0.1:${await freePort()}`));
    // Nothing listens: the broker may come back.
    expect(classifyError(err, ctx)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'messaging',
      retryable: true,
    });
  });
});
