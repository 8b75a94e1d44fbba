import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COUNT_ATTR_CLASS,
  COUNT_ATTR_CODE,
  COUNT_ATTR_DEPENDENCY,
  COUNT_ATTR_ENTRY,
  COUNT_ATTR_PROPAGATED,
  COUNT_ATTR_SOURCE,
  COUNT_ATTR_SPAN_KIND,
  COUNT_CALLS,
  COUNT_FAILURES,
  COUNT_METER_NAME,
} from '../../src/envelope/count-metrics.js';
import type { ReceivedPoint } from './helpers/otlp-metrics.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, type PreloadMode, startService } from './helpers/run-fixture.js';
import { startUpstream, type Upstream } from './helpers/upstream.js';

/**
 * Issue #29: the preload counts every call and failure in process and exports the counts as OTLP
 * delta sums, so they are exact whatever the trace sampler kept. A preloaded service serves REQUESTS
 * requests from outside (entries), each calling a local dependency; 6 answer 503 and 3 answer 429,
 * and the service answers those 502 (an echo). Traces are sampled at 10% (with and without the kept
 * failures), counts are exported every 200 ms and on SIGTERM: every delta point of every export
 * must add up to the true numbers.
 */
const REQUESTS = 60;
const FAILING: Record<number, string> = {};
for (const i of [3, 13, 23, 33, 43, 53]) FAILING[i] = '503';
for (const i of [7, 27, 47]) FAILING[i] = '429';

interface Run {
  mode: Exclude<PreloadMode, 'none'>;
  requests: number;
  env: Record<string, string>;
  /** Each request arrives from an instrumented caller that sampled its trace out. */
  unsampledCaller?: boolean;
}

const SAMPLED = { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };
const RUNS = {
  // Without the kept failures too: the counts need every span recorded, not exported.
  proto: { mode: 'import', requests: REQUESTS, env: { ...SAMPLED, FAULTLINE_KEEP_FAILURES: 'off' } },
  json: {
    mode: 'require',
    requests: REQUESTS,
    env: { ...SAMPLED, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  },
  unsampled: { mode: 'import', requests: 10, env: {} },
  // The default sampler (parentbased_always_on) behind a caller that did not sample: the SDK would
  // not even record these spans; the counts still see every call.
  behindunsampled: { mode: 'import', requests: 20, env: {}, unsampledCaller: true },
  countsoff: { mode: 'import', requests: 10, env: { FAULTLINE_COUNTS: 'off' } },
  metricsnone: { mode: 'require', requests: 10, env: { OTEL_METRICS_EXPORTER: 'none' } },
} satisfies Record<string, Run>;
type RunName = keyof typeof RUNS;

let receiver: OtlpReceiver;
let upstream: Upstream;
const results = new Map<RunName, FixtureResult>();

/** The upstream path request i calls: /status/503, /status/429 or a success. */
const pathOf = (i: number) => (FAILING[i] ? `/status/${FAILING[i]}` : `/ok/${i}`);

async function runService(run: RunName, { mode, requests, env, unsampledCaller }: Run): Promise<void> {
  const service = await startService({
    fixture: 'counted-calls.mjs',
    mode,
    env: {
      OTEL_SERVICE_NAME: run,
      // Per-run paths: /v1/traces and /v1/metrics are appended to the base.
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/${run}`,
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20fl-count-token',
      FAULTLINE_COUNT_EXPORT_INTERVAL_MS: '200',
      // Spans leave during the run too, not only in the exit flush, whose short timeout a loaded
      // machine can exceed: the runs with counts off must still show their spans.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      UPSTREAM_URL: upstream.url,
      ...env,
    },
  });
  // Sequential and a little spread out, so the counts leave over several periodic exports.
  for (let i = 0; i < requests; i++) {
    const headers: Record<string, string> = unsampledCaller
      ? { traceparent: `00-${'ab'.repeat(8)}${String(i).padStart(16, '0')}-${'cd'.repeat(8)}-00` }
      : {};
    const res = await fetch(`${service.url}/call${pathOf(i)}`, { headers });
    await res.arrayBuffer();
    expect(res.status).toBe(FAILING[i] ? 502 : 200);
    if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  results.set(run, await service.stop());
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startUpstream();
  await Promise.all(Object.entries(RUNS).map(([run, spec]) => runService(run as RunName, spec)));
}, 120_000);

afterAll(async () => {
  await Promise.all([upstream?.close(), receiver?.close()]);
});

function pointsOf(run: RunName): ReceivedPoint[] {
  return receiver.metrics.filter((m) => m.path === `/${run}/v1/metrics`).flatMap((m) => m.points);
}

/** The sum of a metric's points by the attributes named, as `a=x b=y` keys. */
function totals(points: ReceivedPoint[], metric: string, keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of points.filter((p) => p.metric === metric)) {
    const key = keys.map((k) => `${k.replace('faultline.', '')}=${String(p.attributes[k])}`).join(' ');
    out[key] = (out[key] ?? 0) + p.value;
  }
  return out;
}

const CALL_KEYS = [COUNT_ATTR_SPAN_KIND, COUNT_ATTR_SOURCE, COUNT_ATTR_DEPENDENCY, COUNT_ATTR_ENTRY];
const FAILURE_KEYS = [...CALL_KEYS, COUNT_ATTR_CLASS, COUNT_ATTR_CODE, COUNT_ATTR_PROPAGATED];

function expectExactCounts(run: RunName, requests: number): void {
  const result = results.get(run);
  expect({ code: result?.code, signal: result?.signal, stderr: result?.stderr }).toEqual({
    code: null,
    signal: 'SIGTERM',
    stderr: '',
  });
  const points = pointsOf(run);
  const dependency = upstream.url.replace('http://', '');
  const failing = Object.keys(FAILING).filter((i) => Number(i) < requests);
  const of = (status: string) => failing.filter((i) => FAILING[Number(i)] === status).length;
  expect(totals(points, COUNT_CALLS, CALL_KEYS)).toEqual({
    'span_kind=Server source=http dependency= entry=true': requests,
    [`span_kind=Client source=http dependency=${dependency} entry=false`]: requests,
  });
  expect(totals(points, COUNT_FAILURES, FAILURE_KEYS)).toEqual({
    [`span_kind=Client source=http dependency=${dependency} entry=false class=transient code=503 propagated=false`]:
      of('503'),
    [`span_kind=Client source=http dependency=${dependency} entry=false class=rate_limit code=429 propagated=false`]:
      of('429'),
    // The service's 502 echoes its dependency's failure.
    'span_kind=Server source=http dependency= entry=true class=transient code=502 propagated=true':
      failing.length,
  });
  // Every point a monotonic delta sum of the contract's meter, under the service's resource.
  for (const p of points) {
    expect({
      scope: p.scope,
      temporality: p.temporality,
      monotonic: p.monotonic,
      service: p.service,
    }).toEqual({
      scope: COUNT_METER_NAME,
      temporality: 1,
      monotonic: true,
      service: run,
    });
    expect(p.resource['telemetry.distro.name']).toBe('faultline');
    expect(Number.isInteger(p.value) && p.value > 0).toBe(true);
  }
}

describe('exact call counts under OTEL_TRACES_SAMPLER=traceidratio, ratio 0.1', () => {
  it('sum to every call and failure by class, over several exports (protobuf, --import)', () => {
    expectExactCounts('proto', REQUESTS);
    // Spread over the periodic exports and the exit flush, each a delta of its own.
    expect(receiver.metrics.filter((m) => m.path === '/proto/v1/metrics').length).toBeGreaterThan(1);
  });

  it('sum the same over http/json (--require)', () => {
    expectExactCounts('json', REQUESTS);
    const requests = receiver.metrics.filter((m) => m.path === '/json/v1/metrics');
    expect(requests.every((m) => String(m.headers['content-type']).startsWith('application/json'))).toBe(
      true,
    );
  });

  it('while the traces kept only a sample of those calls', () => {
    for (const run of ['proto', 'json'] as const) {
      const spans = receiver.requests.filter((r) => r.path === `/${run}/v1/traces`).flatMap((r) => r.spans);
      // 120 spans at 10% (failures may be kept whole): far from all of them.
      expect(spans.length).toBeLessThan(2 * REQUESTS - 20);
    }
  });

  it('reach the collector with the traces-only headers (the ingest token)', () => {
    const requests = receiver.metrics.filter((m) => m.path === '/proto/v1/metrics');
    for (const m of requests) expect(m.headers.authorization).toBe('Bearer fl-count-token');
  });
});

describe('the counts without sampling, and switched off', () => {
  it('count the same way with the default sampler', () => {
    expectExactCounts('unsampled', RUNS.unsampled.requests);
  });

  it('count every call behind a caller that sampled its trace out, and export none of its spans', () => {
    const points = pointsOf('behindunsampled');
    const dependency = upstream.url.replace('http://', '');
    const requests = RUNS.behindunsampled.requests;
    const failing = Object.keys(FAILING).filter((i) => Number(i) < requests).length;
    // Not entries: each request has its caller's span as parent.
    expect(totals(points, COUNT_CALLS, CALL_KEYS)).toEqual({
      'span_kind=Server source=http dependency= entry=false': requests,
      [`span_kind=Client source=http dependency=${dependency} entry=false`]: requests,
    });
    expect(Object.values(totals(points, COUNT_FAILURES, FAILURE_KEYS)).reduce((a, b) => a + b, 0)).toBe(
      2 * failing,
    );
    expect(receiver.requests.some((r) => r.path === '/behindunsampled/v1/traces')).toBe(false);
  });

  it('export nothing with FAULTLINE_COUNTS=off or OTEL_METRICS_EXPORTER=none, spans unchanged', () => {
    for (const run of ['countsoff', 'metricsnone'] as const) {
      expect(results.get(run)?.stderr).toBe('');
      expect(receiver.metrics.filter((m) => m.path.startsWith(`/${run}/`))).toEqual([]);
      expect(receiver.requests.some((r) => r.path === `/${run}/v1/traces`)).toBe(true);
    }
  });
});
