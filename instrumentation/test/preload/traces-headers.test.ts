import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue 28: the exporter reads its own OTEL_EXPORTER_OTLP_* variables, so the signal-specific
 * OTEL_EXPORTER_OTLP_TRACES_HEADERS (which the preload's hand-written reading ignored) reaches the
 * collector, merged over OTEL_EXPORTER_OTLP_HEADERS as the specification has it.
 */
describe.each([
  ['import', 'script.mjs'],
  ['require', 'script.cjs'],
] as const)('OTEL_EXPORTER_OTLP_TRACES_HEADERS under --%s', (mode, fixture) => {
  let upstream: Upstream;
  let receiver: OtlpReceiver;
  let result: FixtureResult;

  beforeAll(async () => {
    [upstream, receiver] = await Promise.all([startUpstream(), startOtlpReceiver()]);
    result = await runFixture({
      fixture,
      mode,
      env: {
        UPSTREAM_URL: upstream.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-fl-shared=base,x-fl-tenant=from-base',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-fl-tenant=acme,authorization=Bearer%20fl-traces-token',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([upstream?.close(), receiver?.close()]);
  });

  it('sends both variables on every export request, the traces one winning', () => {
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 3, stderr: '' });
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.headers).toMatchObject({
        'x-fl-tenant': 'acme',
        'x-fl-shared': 'base',
        authorization: 'Bearer fl-traces-token',
      });
    }
    expect(receiver.spans.some((s) => s.attributes['faultline.code'] === '42P01')).toBe(true);
  });
});
