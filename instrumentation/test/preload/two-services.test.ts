import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { startService } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, SERVER } from './helpers/spans.js';
import { closedPortUrl, startUpstream, type Upstream } from './helpers/upstream.js';

describe('correlation across two preloaded services', () => {
  let receiver: OtlpReceiver;
  let upstream: Upstream;
  let answer: { status: number; body: string };
  const correlationId = `fl-h3-two-services-${Date.now()}`;

  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      UPSTREAM_URL: upstream.url,
      CLOSED_URL: await closedPortUrl(),
    };
    // A is an ESM app under --import, B a CJS app under --require: the id must survive both.
    const [a, b] = await Promise.all([
      startService({ fixture: 'service.mjs', mode: 'import', env: { ...env, OTEL_SERVICE_NAME: 'fl-h3-a' } }),
      startService({
        fixture: 'service.cjs',
        mode: 'require',
        env: { ...env, OTEL_SERVICE_NAME: 'fl-h3-b' },
      }),
    ]);
    const res = await fetch(`${a.url}/call?target=${encodeURIComponent(`${b.url}/leaf`)}`, {
      headers: { 'x-correlation-id': correlationId },
    });
    answer = (await res.json()) as { status: number; body: string };
    await Promise.all([a.stop(), b.stop()]);
  });

  afterAll(async () => {
    await Promise.all([receiver?.close(), upstream?.close()]);
  });

  it('passes the call through unchanged', () => {
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 500 });
  });

  it('shares the inbound x-correlation-id on every span of both services', () => {
    const spans = receiver.spans;
    const services = new Set(spans.map((s) => s.service));
    expect(services).toEqual(new Set(['fl-h3-a', 'fl-h3-b']));
    const aServer = spans.find((s) => s.service === 'fl-h3-a' && s.kind === SERVER);
    const bServer = spans.find((s) => s.service === 'fl-h3-b' && s.kind === SERVER);
    const bClient = spans.find((s) => s.service === 'fl-h3-b' && s.kind === CLIENT);
    for (const span of [aServer, bServer, bClient]) {
      expect(span?.attributes['faultline.correlation_id']).toBe(correlationId);
    }
    expect(spans.filter((s) => s.attributes['faultline.correlation_id'] !== correlationId)).toEqual([]);
  });

  it('classifies the failure at every hop: B upstream call, B inbound 5xx, A outbound call', () => {
    const spans = receiver.spans;
    const bClient = spans.find((s) => s.service === 'fl-h3-b' && s.kind === CLIENT);
    expect(envelopeOf(bClient)).toMatchObject({ class: 'transient', code: '500', retryable: true });
    const bServer = spans.find((s) => s.service === 'fl-h3-b' && s.kind === SERVER);
    expect(envelopeOf(bServer)).toMatchObject({ class: 'transient', code: '502', source: 'http' });
    const aClient = spans.find((s) => s.service === 'fl-h3-a' && s.kind === CLIENT);
    expect(envelopeOf(aClient)).toMatchObject({
      class: 'transient',
      code: '502',
      correlation_id: correlationId,
    });
  });
});
