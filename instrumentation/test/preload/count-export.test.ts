import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/preload/sdk/config.js';
import { type CountExport, startCountExport } from '../../src/preload/sdk/count-meter.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { closedPortUrl } from './helpers/upstream.js';

const counts = (env: Record<string, string>, options = {}) => readConfig(options, env);

describe('the counts settings', () => {
  it('are on by default, every 10 s, to the exporter’s own endpoint', () => {
    const { counts: settings, warnings } = counts({});
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      enabled: true,
      url: undefined,
      headers: undefined,
      protocol: 'http/protobuf',
      intervalMillis: 10_000,
    });
  });

  it('turn off with FAULTLINE_COUNTS=off or OTEL_METRICS_EXPORTER=none', () => {
    expect(counts({ FAULTLINE_COUNTS: 'off' }).counts.enabled).toBe(false);
    expect(counts({ OTEL_METRICS_EXPORTER: 'none' }).counts.enabled).toBe(false);
    expect(counts({ OTEL_METRICS_EXPORTER: 'otlp, none' }).counts.enabled).toBe(false);
    expect(counts({ OTEL_METRICS_EXPORTER: 'otlp' }).counts.enabled).toBe(true);
    expect(counts({ OTEL_METRICS_EXPORTER: 'prometheus' }).counts.enabled).toBe(true);
  });

  it('warn once about a bad value and keep the default', () => {
    const { counts: settings, warnings } = counts({
      FAULTLINE_COUNTS: 'sometimes',
      OTEL_METRICS_EXPORTER: 'statsd',
      FAULTLINE_COUNT_EXPORT_INTERVAL_MS: '5s',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
    });
    expect(settings).toMatchObject({ enabled: true, intervalMillis: 10_000, protocol: 'http/protobuf' });
    expect(warnings).toEqual([
      'FAULTLINE_COUNTS="sometimes" is not valid: use on or off (using on)',
      'OTEL_METRICS_EXPORTER="statsd" is not valid: use otlp, or none to stop exporting call counts (ignored)',
      'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL="grpc" is not valid: use http/protobuf or http/json; grpc is not bundled (using http/protobuf)',
      'FAULTLINE_COUNT_EXPORT_INTERVAL_MS="5s" is not valid: use milliseconds from 100 to 60000 (using 10000)',
    ]);
    for (const raw of ['0', '99', '60001', '1.5']) {
      expect(counts({ FAULTLINE_COUNT_EXPORT_INTERVAL_MS: raw }).warnings).toHaveLength(1);
    }
    expect(counts({ FAULTLINE_COUNT_EXPORT_INTERVAL_MS: ' 250 ' }).counts.intervalMillis).toBe(250);
  });

  it('go where the spans go: the metrics endpoint, the base, else the traces URL’s collector', () => {
    const url = (env: Record<string, string>, options = {}) => counts(env, options).counts.url;
    // The exporter reads these two itself.
    expect(url({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:4318/v1/metrics' })).toBeUndefined();
    expect(url({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeUndefined();
    expect(url({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/v1/traces' })).toBe(
      'https://t.example/v1/metrics',
    );
    expect(url({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/otlp/v1/traces/' })).toBe(
      'https://t.example/otlp/v1/metrics',
    );
    expect(url({}, { tracesEndpoint: 'http://o:1/v1/traces' })).toBe('http://o:1/v1/metrics');
    expect(url({}, { endpoint: 'http://d:1/' })).toBe('http://d:1/v1/metrics');
    // An invalid metrics endpoint falls to the base, warned.
    const bad = counts({
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/',
    });
    expect(bad.counts.url).toBe('http://c:4318/v1/metrics');
    expect(bad.warnings).toEqual([
      'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT="collector:4318" is not valid: use a full http(s):// URL such as http://host:4318/v1/metrics',
    ]);
  });

  it('carry the traces-only headers (an ingest token) unless metrics headers are set', () => {
    const headers = (env: Record<string, string>, options = {}) => counts(env, options).counts.headers;
    expect(headers({ OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20tok' })).toEqual({
      authorization: 'Bearer tok',
    });
    expect(
      headers({
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20tok',
        OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'authorization=Bearer%20other',
      }),
    ).toBeUndefined();
    expect(headers({}, { headers: { 'x-a': '1' } })).toEqual({ 'x-a': '1' });
    expect(counts({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).counts.protocol).toBe('http/json');
    expect(counts({}, { protocol: 'http/json' }).counts.protocol).toBe('http/json');
  });
});

function clientSpan(error: boolean): ReadableSpan {
  return {
    name: 'GET',
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': 'GET',
      'server.address': 'api.example.com',
      ...(error ? { 'faultline.class': 'transient', 'faultline.code': '503' } : {}),
    },
    status: { code: error ? SpanStatusCode.ERROR : SpanStatusCode.UNSET },
  } as unknown as ReadableSpan;
}

describe('the counts export', () => {
  let receiver: OtlpReceiver;
  let running: CountExport;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const { counts: settings } = readConfig({ endpoint: receiver.url }, {});
    const started = startCountExport(settings, resourceFromAttributes({ 'service.name': 'unit' }));
    if (!started) throw new Error('counts are off');
    running = started;
  });

  afterAll(async () => {
    await running?.shutdown();
    await receiver?.close();
  });

  const exported = (from: number) =>
    receiver.metrics
      .slice(from)
      .flatMap((m) =>
        m.points.map((p) => ({ metric: p.metric, value: p.value, code: p.attributes['faultline.code'] })),
      );

  it('sends each flush the calls since the one before, and only the series that moved', async () => {
    expect(running.hasUnflushed()).toBe(false);
    for (let i = 0; i < 5; i++) running.counter.count(clientSpan(i === 0));
    expect(running.hasUnflushed()).toBe(true);
    await running.flushForExit();
    expect(running.hasUnflushed()).toBe(false);
    expect(exported(0)).toEqual([
      { metric: 'faultline.calls', value: 5, code: undefined },
      { metric: 'faultline.failures', value: 1, code: '503' },
    ]);
    const before = receiver.metrics.length;
    running.counter.count(clientSpan(false));
    running.counter.count(clientSpan(false));
    await running.flushForExit();
    expect(exported(before)).toEqual([{ metric: 'faultline.calls', value: 2, code: undefined }]);
    // Nothing new: nothing sent.
    const after = receiver.metrics.length;
    await running.flushForExit();
    expect(receiver.metrics.length).toBe(after);
  });

  it('resolves an exit flush promptly when the collector is down', async () => {
    const { counts: settings } = readConfig({ endpoint: await closedPortUrl() }, {});
    const down = startCountExport(settings, resourceFromAttributes({ 'service.name': 'down' }));
    down?.counter.count(clientSpan(true));
    const started = performance.now();
    await down?.flushForExit();
    expect(performance.now() - started).toBeLessThan(1000);
    await down?.shutdown();
  });
});
