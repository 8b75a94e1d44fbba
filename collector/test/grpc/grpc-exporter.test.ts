import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { exportSpans, makeSpans } from '../receiver/helpers/make-spans.js';
import { openTestStore, type TestStore, traceRows } from '../receiver/helpers/test-store.js';

// The official OTLP/gRPC exporter → the gRPC receiver → the real writer → embedded chDB.
const TOKEN = 'grpc-test-token-0123456789abcdef';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('grpc');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

function withToken(token = TOKEN): Metadata {
  const m = new Metadata();
  m.set('authorization', `Bearer ${token}`);
  return m;
}

describe.each([
  ['none', undefined],
  ['gzip', 'gzip'],
])('official OTLP/gRPC exporter, compression %s', (label, compression) => {
  it('lands every span in otel_traces exactly once, attributes intact', async () => {
    const service = `grpc-${label}`;
    const spans = makeSpans(service, [
      {
        name: 'POST /v1/charges',
        attributes: {
          'http.request.method': 'POST',
          'http.response.status_code': 429,
          'faultline.retryable': true,
        },
        error: 'rate limited',
        event: { name: 'exception', attributes: { 'exception.type': 'RateLimitError' } },
      },
    ]);
    const exporter = new OTLPTraceExporter({
      url: collector.grpcUrl,
      metadata: withToken(),
      compression: compression as never,
    });
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result).toEqual({ ok: true, error: undefined });

    await collector.writer.settle();
    const traceId = spans[0]!.spanContext().traceId;
    const rows = await traceRows(ts.store, traceId);
    expect(rows).toHaveLength(2);
    const charge = rows.find((r) => r.SpanName === 'POST /v1/charges')!;
    const sdkSpan = spans.find((s) => s.name === 'POST /v1/charges')!;
    expect(charge).toMatchObject({
      TraceId: traceId,
      SpanId: sdkSpan.spanContext().spanId,
      ParentSpanId: sdkSpan.parentSpanContext?.spanId,
      SpanKind: 'Client',
      ServiceName: service,
      ScopeName: 'h4b-receiver-test',
      StatusCode: 'Error',
      StatusMessage: 'rate limited',
      'Events.Name': ['exception'],
    });
    expect(charge.SpanAttributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': '429',
      'faultline.retryable': 'true',
    });
    const [s, ns] = sdkSpan.duration;
    expect(Number(charge.Duration)).toBe(s * 1e9 + ns);
  });
});

describe('bearer token over gRPC metadata', () => {
  it.each([
    ['missing', undefined],
    ['wrong', withToken(TOKEN.replace(/.$/, 'x'))],
  ])('a %s token is UNAUTHENTICATED and stores nothing', async (_label, metadata) => {
    const spans = makeSpans('grpc-no-token', [{ name: 'GET /x' }]);
    const exporter = new OTLPTraceExporter({ url: collector.grpcUrl, metadata });
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result.ok).toBe(false);
    expect((result.error as { code?: number }).code).toBe(16);
    expect(await traceRows(ts.store, spans[0]!.spanContext().traceId)).toHaveLength(0);
  });
});

it('counts gRPC answers in /metrics like /v1/traces', async () => {
  const metrics = await (await fetch(`${collector.url}/metrics`)).text();
  expect(metrics).toContain('faultline_otlp_responses_total{code="200"} 2');
  expect(metrics).toContain('faultline_otlp_responses_total{code="401"} 2');
  expect(metrics).toMatch(/faultline_spans_accepted_total 4\b/);
});
