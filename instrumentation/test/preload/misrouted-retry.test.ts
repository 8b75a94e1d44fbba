import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from './helpers/otlp-receiver.js';
import { startService } from './helpers/run-fixture.js';
import { envelopeOf, httpClientSpans } from './helpers/spans.js';
import { closedPortUrl, startUpstream } from './helpers/upstream.js';

interface Repeat {
  first: { status?: number; error?: string };
  second: { status?: number; error?: string };
  fetchFirst: { status?: number; error?: string };
  fetchSecond: { status?: number; error?: string };
}

async function runRepeat(enforce: boolean, mode: 'import' | 'require') {
  const [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
  const service = await startService({
    fixture: mode === 'import' ? 'service.mjs' : 'service.cjs',
    mode,
    env: {
      OTEL_SERVICE_NAME: 'fl-h3-repeat',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      UPSTREAM_URL: upstream.url,
      CLOSED_URL: await closedPortUrl(),
      FAULTLINE_ENFORCE_MISROUTED: enforce ? 'on' : 'off',
    },
  });
  const res = await fetch(`${service.url}/repeat`, {
    headers: { 'x-request-id': `fl-h3-repeat-${enforce}` },
  });
  const result = (await res.json()) as Repeat;
  await service.stop();
  return { receiver, upstream, result };
}

describe('misrouted retries', () => {
  let observed: Awaited<ReturnType<typeof runRepeat>>;
  let enforced: Awaited<ReturnType<typeof runRepeat>>;

  beforeAll(async () => {
    [observed, enforced] = await Promise.all([runRepeat(false, 'import'), runRepeat(true, 'require')]);
  });

  afterAll(async () => {
    for (const run of [observed, enforced]) await Promise.all([run?.receiver.close(), run?.upstream.close()]);
  });

  it('marks an identical repeat after a non-retryable failure, and only the repeat', () => {
    expect(observed.result.second).toMatchObject({ status: 400 });
    for (const suffix of ['/status/400', '/status/422']) {
      const [first, second] = httpClientSpans(observed.receiver.spans, suffix);
      expect(envelopeOf(first)).toMatchObject({ retryable: false, correlation_id: 'fl-h3-repeat-false' });
      expect(first?.attributes['faultline.misrouted_retry']).toBeUndefined();
      expect(second?.attributes['faultline.misrouted_retry']).toBe(true);
      expect(envelopeOf(second).code).toBe(envelopeOf(first).code);
    }
    expect(observed.upstream.hits.get('/status/400')).toBe(2);
  });

  it('in enforce mode answers the repeat at once with the earlier envelope', () => {
    expect(enforced.result.first).toMatchObject({ status: 400 });
    expect(enforced.result.second).toEqual({ error: 'FAULTLINE_MISROUTED_RETRY' });
    expect(enforced.result.fetchFirst).toMatchObject({ status: 422 });
    expect(enforced.result.fetchSecond).toEqual({ error: 'FAULTLINE_MISROUTED_RETRY' });
    // Nothing left the process for the refused calls.
    expect(enforced.upstream.hits.get('/status/400')).toBe(1);
    expect(enforced.upstream.hits.get('/status/422')).toBe(1);
    for (const suffix of ['/status/400', '/status/422']) {
      const [first, refused] = httpClientSpans(enforced.receiver.spans, suffix);
      expect(refused?.attributes['faultline.misrouted_retry']).toBe(true);
      expect(envelopeOf(refused)).toMatchObject({
        code: envelopeOf(first).code,
        class: envelopeOf(first).class,
        retryable: false,
      });
    }
  });
});
