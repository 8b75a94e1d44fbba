import { SpanKind } from '@opentelemetry/api';
import { OTLPTraceExporter as OTLPHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { createSpanWriter } from '../../src/writer/index.js';
import { exportSpans, makeSpans } from './helpers/make-spans.js';
import { failureRows, openTestStore, type TestStore, traceRows } from './helpers/test-store.js';

// Real clients (the official OTLP exporters) → real receiver → real writer → embedded chDB.
const TOKEN = 'h4b-test-token-0123456789abcdef';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('official');
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

const auth = { Authorization: `Bearer ${TOKEN}` };

function failingCall(service: string) {
  return makeSpans(service, [
    {
      name: 'POST /v1/charges',
      attributes: {
        'http.request.method': 'POST',
        'http.response.status_code': 429,
        'faultline.class': 'rate_limit',
        'faultline.source': 'http',
        'faultline.code': '429',
        'faultline.message': 'Rate limit exceeded',
        'faultline.retryable': true,
        'faultline.retry_after': 12,
        'faultline.correlation_id': 'req_8f21c0',
        'faultline.raw': '{"status":429}',
        'faultline.attempt': 2,
      },
      error: 'rate limited',
      event: { name: 'exception', attributes: { 'exception.type': 'RateLimitError' } },
    },
    { name: 'SELECT orders', attributes: { 'db.system.name': 'postgresql', 'faultline.source': 'db' } },
  ]);
}

describe.each([
  ['protobuf', () => new OTLPProtoExporter({ url: `${collector.url}/v1/traces`, headers: auth })],
  [
    'protobuf+gzip',
    () =>
      new OTLPProtoExporter({
        url: `${collector.url}/v1/traces`,
        headers: auth,
        compression: 'gzip' as never,
      }),
  ],
  ['json', () => new OTLPHttpJsonExporter({ url: `${collector.url}/v1/traces`, headers: auth })],
  [
    'json+gzip',
    () =>
      new OTLPHttpJsonExporter({
        url: `${collector.url}/v1/traces`,
        headers: auth,
        compression: 'gzip' as never,
      }),
  ],
])('official exporter over %s', (label, makeExporter) => {
  it('lands every span in otel_traces and the failure in failures', async () => {
    const service = `h4b-${label}`;
    const spans = failingCall(service);
    const exporter = makeExporter();
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result).toEqual({ ok: true, error: undefined });

    // Acknowledged after the write-ahead fsync; the INSERT follows in the background.
    await collector.writer.settle();
    const traceId = spans[0]!.spanContext().traceId;
    const rows = await traceRows(ts.store, traceId);
    expect(rows).toHaveLength(3);
    const charge = rows.find((r) => r.SpanName === 'POST /v1/charges')!;
    const sdkSpan = spans.find((s) => s.name === 'POST /v1/charges')!;
    expect(charge).toMatchObject({
      TraceId: traceId,
      SpanId: sdkSpan.spanContext().spanId,
      ParentSpanId: sdkSpan.parentSpanContext?.spanId,
      SpanKind: 'Client',
      ServiceName: service,
      ScopeName: 'h4b-receiver-test',
      ScopeVersion: '0.0.1',
      StatusCode: 'Error',
      StatusMessage: 'rate limited',
      'Events.Name': ['exception'],
      'Events.Attributes': [{ 'exception.type': 'RateLimitError' }],
    });
    expect(charge.ResourceAttributes).toMatchObject({
      'service.name': service,
      'deployment.environment.name': 'test',
    });
    expect(charge.SpanAttributes).toMatchObject({
      'http.response.status_code': '429',
      'faultline.retryable': 'true',
      'faultline.retry_after': '12',
      'faultline.attempt': '2',
    });
    // Duration in ns matches the SDK's own hrtime arithmetic.
    const [s, ns] = sdkSpan.duration;
    expect(Number(charge.Duration)).toBe(s * 1e9 + ns);
    const root = rows.find((r) => r.SpanName === 'root')!;
    expect(root).toMatchObject({ SpanKind: 'Server', ParentSpanId: '', StatusCode: 'Unset' });

    const failures = await failureRows(ts.store, traceId);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      ServiceName: service,
      class: 'rate_limit',
      source: 'http',
      code: '429',
      retryable: true,
      retry_after: 12,
      correlation_id: 'req_8f21c0',
      attempt: 2,
      misrouted_retry: false,
    });
  });
});

describe('bearer token', () => {
  it('refuses an export without the token and stores nothing', async () => {
    const spans = makeSpans('h4b-no-token', [{ name: 'GET /x', kind: SpanKind.CLIENT }]);
    const exporter = new OTLPProtoExporter({ url: `${collector.url}/v1/traces` });
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result.ok).toBe(false);
    expect(String(result.error)).toMatch(/401|Unauthorized/i);
    expect(await traceRows(ts.store, spans[0]!.spanContext().traceId)).toHaveLength(0);
  });

  it('refuses a wrong token', async () => {
    const spans = makeSpans('h4b-bad-token', [{ name: 'GET /y' }]);
    const exporter = new OTLPHttpJsonExporter({
      url: `${collector.url}/v1/traces`,
      headers: { Authorization: `Bearer ${TOKEN.replace(/.$/, 'x')}` },
    });
    const result = await exportSpans(exporter, spans);
    await exporter.shutdown();
    expect(result.ok).toBe(false);
    expect(await traceRows(ts.store, spans[0]!.spanContext().traceId)).toHaveLength(0);
  });
});

describe('saturation', () => {
  it('answers 429 with Retry-After when the writer queue is full, and the exporter reports failure', async () => {
    // The bound under test is the insert mode's in-memory queue (wal mode bounds bytes on disk).
    const small = createSpanWriter(ts.store, {
      ackAfter: 'insert',
      spoolDir: `${ts.spoolDir}-small`,
      maxQueueSpans: 2,
      maxBatchSpans: 2,
    });
    const tiny = await startCollector({ port: 0, writer: small });
    try {
      const spans = makeSpans('h4b-saturated', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      const res = await fetch(`${tiny.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: spans.map((s) => ({
                    traceId: s.spanContext().traceId,
                    spanId: s.spanContext().spanId,
                    name: s.name,
                  })),
                },
              ],
            },
          ],
        }),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ code: 8, message: expect.stringMatching(/saturated/) });
      expect(await traceRows(ts.store, spans[0]!.spanContext().traceId)).toHaveLength(0);
      const metrics = await (await fetch(`${tiny.url}/metrics`)).text();
      expect(metrics).toContain('faultline_spans_rejected_total{reason="saturated"} 4');
      expect(metrics).toContain('faultline_otlp_responses_total{code="429"} 1');
    } finally {
      await tiny.close();
    }
  });

  it('while the queue stays full, refuses further exports before reading them', async () => {
    // The bound under test is the insert mode's in-memory queue (wal mode bounds bytes on disk).
    const held = createSpanWriter(ts.store, {
      ackAfter: 'insert',
      spoolDir: `${ts.spoolDir}-held`,
      maxQueueSpans: 3,
      maxBatchSpans: 3,
      maxBatchDelayMs: 60_000,
    });
    const tiny = await startCollector({ port: 0, writer: held });
    const json = { 'content-type': 'application/json' };
    const request = (names: string[]) =>
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: names.map((name, i) => ({
                  traceId: 'ab'.repeat(16),
                  spanId: `${name}${i}`.padStart(16, '0'),
                  name,
                })),
              },
            ],
          },
        ],
      });
    try {
      // Two spans wait in the queue (the batch timer is a minute away); two more do not fit.
      const first = fetch(`${tiny.url}/v1/traces`, {
        method: 'POST',
        headers: json,
        body: request(['a', 'a']),
      });
      await expect.poll(() => held.stats().queueDepth).toBe(2);
      const second = await fetch(`${tiny.url}/v1/traces`, {
        method: 'POST',
        headers: json,
        body: request(['b', 'b']),
      });
      expect(second.status).toBe(429);
      // Garbage would be a 400 if it were read; refused unread, it is a 429 like the rest.
      const third = await fetch(`${tiny.url}/v1/traces`, {
        method: 'POST',
        headers: json,
        body: '{not json',
      });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('1');
      const metrics = await (await fetch(`${tiny.url}/metrics`)).text();
      expect(metrics).toContain('faultline_otlp_responses_total{code="429"} 2');
      // Shutdown drains the held batch: the first export is acknowledged after all.
      await tiny.close();
      expect((await first).status).toBe(200);
    } finally {
      await tiny.close();
    }
  });
});
