import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COUNT_ATTR_CLASS,
  COUNT_ATTR_CODE,
  COUNT_ATTR_ENTRY,
  COUNT_ATTR_SPAN_KIND,
  COUNT_CALLS,
  COUNT_FAILURES,
  COUNT_METER_NAME,
} from '../../src/envelope/count-metrics.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, startService } from './helpers/run-fixture.js';
import { CLIENT, SERVER } from './helpers/spans.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue 29 inside a NodeSDK the service builds itself (own-sdk-sampled.cjs): with Faultline's
 * sampler and export wrapper it samples at 10% the specification's way and still exports every
 * failure, and Faultline's span processor counts every call in process and exports the counts
 * under the service name its SDK was given in code. The scenario: 40 requests from outside, each
 * one call to a local dependency; requests 5, 15, 25, 35 get a 503, 10 and 30 a 429 (6 failed
 * calls, each answered 502 by the service: 6 failed requests).
 */
const REQUESTS = 40;
const FAILING: Record<number, string> = { 5: '503', 15: '503', 25: '503', 35: '503', 10: '429', 30: '429' };

let receiver: OtlpReceiver;
let upstream: Upstream;
let result: FixtureResult;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startUpstream();
  const service = await startService({
    fixture: 'own-sdk-sampled.cjs',
    mode: 'none',
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      FAULTLINE_COUNT_EXPORT_INTERVAL_MS: '200',
      // The application's SDK would also set up its own logs and metrics exporters.
      OTEL_LOGS_EXPORTER: 'none',
      UPSTREAM_URL: upstream.url,
    },
  });
  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(`${service.url}/call${FAILING[i] ? `/status/${FAILING[i]}` : `/ok/${i}`}`);
    await res.arrayBuffer();
    expect(res.status).toBe(FAILING[i] ? 502 : 200);
  }
  result = await service.stop();
}, 60_000);

afterAll(async () => {
  await Promise.all([upstream?.close(), receiver?.close()]);
});

describe('faultline() in a sampled NodeSDK of the service', () => {
  it('shuts down cleanly', () => {
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('exports every failed call and request, weight 1, and only a sample of the rest, each marked', () => {
    const spans = receiver.requests
      .flatMap((r) => r.spans)
      .filter((s) => s.kind === CLIENT || s.kind === SERVER);
    const failedClients = spans.filter((s) => s.kind === CLIENT && s.attributes['faultline.class']);
    expect(failedClients.map((s) => s.attributes['faultline.code']).sort()).toEqual([
      '429',
      '429',
      '503',
      '503',
      '503',
      '503',
    ]);
    for (const s of failedClients) {
      expect(s.traceState).toContain('th:0');
      expect(s.attributes['faultline.sampling.kept']).toBe('failure');
    }
    const failedServers = spans.filter((s) => s.kind === SERVER && s.attributes['faultline.class']);
    expect(failedServers).toHaveLength(6);
    // 80 spans at 10%, the 12 failed ones kept: far from all of them.
    expect(spans.length).toBeLessThan(2 * REQUESTS - 20);
    // Every exported span says what it stands for (consistent probability sampling's ot=th).
    for (const s of spans) expect(s.traceState).toMatch(/(^|,)ot=([^,]*;)?th:[0-9a-f]+/);
  });

  it("counts every call and failure in process, under the name the service's SDK was given", () => {
    // The application's own metrics (its SDK's runtime instrumentation) go their way beside them.
    const points = receiver.metrics.flatMap((m) => m.points).filter((p) => p.scope === COUNT_METER_NAME);
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect({ service: p.service, temporality: p.temporality, monotonic: p.monotonic }).toEqual({
        service: 'own-sampled',
        temporality: 1,
        monotonic: true,
      });
    }
    const sum = (metric: string, key: (a: Record<string, unknown>) => string) => {
      const out: Record<string, number> = {};
      for (const p of points.filter((p) => p.metric === metric)) {
        const k = key(p.attributes);
        out[k] = (out[k] ?? 0) + p.value;
      }
      return out;
    };
    expect(sum(COUNT_CALLS, (a) => `${a[COUNT_ATTR_SPAN_KIND]} entry=${a[COUNT_ATTR_ENTRY]}`)).toEqual({
      'Server entry=true': REQUESTS,
      'Client entry=false': REQUESTS,
    });
    expect(
      sum(COUNT_FAILURES, (a) => `${a[COUNT_ATTR_SPAN_KIND]} ${a[COUNT_ATTR_CLASS]} ${a[COUNT_ATTR_CODE]}`),
    ).toEqual({
      'Client transient 503': 4,
      'Client rate_limit 429': 2,
      'Server transient 502': 6,
    });
  });
});
