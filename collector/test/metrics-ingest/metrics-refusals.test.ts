import { Metadata } from '@grpc/grpc-js';
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { OTLPMetricExporter as GrpcExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter as JsonExporter,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { callCounts } from './helpers/call-counts.js';
import { countsSession } from './helpers/export-counts.js';
import {
  deltaCalls,
  exportMetricsRaw,
  metricsJson,
  metricsPartialSuccess,
  nowNanos,
} from './helpers/raw-metrics.js';

// What /v1/metrics and MetricsService refuse, and how they say it: real exporters where a real
// client can produce the case (cumulative temporality, a wrong token, an up-down counter, a
// gauge), hand-made bodies for what no SDK sends (malformed, hostile, oversized).
const TOKEN = 'metrics-refusal-token-0123456789abcdef';
const DELTA = AggregationTemporalityPreference.DELTA;
const JSON_CT = { 'content-type': 'application/json', Authorization: `Bearer ${TOKEN}` };
const PROTO_CT = { 'content-type': 'application/x-protobuf', Authorization: `Bearer ${TOKEN}` };
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('metrics-refusals');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    maxBodyBytes: 64 * 1024,
    maxDecompressedBytes: 256 * 1024,
    maxAttributeValueLength: 64,
    maxSpansPerRequest: 50,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const post = (body: string | Buffer, headers: Record<string, string> = JSON_CT, gzip = false) =>
  postTraces(collector.url, body, headers, { path: '/v1/metrics', gzip });
const json = (b: Buffer) => JSON.parse(b.toString());
const grpcMetadata = (token = TOKEN) => {
  const m = new Metadata();
  m.set('authorization', `Bearer ${token}`);
  return m;
};

/** Records the exporters' diag warnings (where they report partial_success). */
function captureWarnings(): { warnings: string[]; stop(): void } {
  const warnings: string[] = [];
  const record = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  const logger: DiagLogger = {
    error: record,
    warn: record,
    info: () => {},
    debug: () => {},
    verbose: () => {},
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return { warnings, stop: () => diag.disable() };
}

function recordCalls(session: ReturnType<typeof countsSession>, n: number): void {
  session.meter.createCounter('faultline.calls').add(n, {
    'faultline.span_kind': 'Client',
    'faultline.source': 'http',
    'faultline.dependency': 'api.example.com',
    'faultline.entry': false,
  });
}

describe('cumulative temporality', () => {
  it('is refused point by point with a message that says to export delta sums (official exporters)', async () => {
    const capture = captureWarnings();
    try {
      for (const [label, exporter] of [
        [
          'proto',
          new ProtoExporter({
            url: `${collector.url}/v1/metrics`,
            headers: { Authorization: `Bearer ${TOKEN}` },
          }),
        ],
        ['grpc', new GrpcExporter({ url: collector.grpcUrl, metadata: grpcMetadata() })],
      ] as const) {
        // Both exporters' default temporality is CUMULATIVE.
        const session = countsSession(exporter, `cumulative-${label}`);
        recordCalls(session, 7);
        // Accepted as a request (partial success, not retried), the points refused.
        expect(await session.exportNow()).toEqual({ ok: true, error: undefined });
        await session.shutdown();
      }
    } finally {
      capture.stop();
    }
    const partial = capture.warnings.filter((w) => w.includes('Partial Success'));
    expect(partial).toHaveLength(2);
    for (const w of partial) {
      expect(w).toContain('AGGREGATION_TEMPORALITY_CUMULATIVE');
      expect(w).toContain('export delta sums');
    }
    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, 'cumulative-proto')).toEqual([]);
    expect(await callCounts(ts.store, 'cumulative-grpc')).toEqual([]);
  });

  it('answers rejected_data_points and the reason, over HTTP and gRPC alike', async () => {
    const session = countsSession(new JsonExporter({ url: 'http://127.0.0.1:1/unused' }), 'cumulative-raw');
    recordCalls(session, 3);
    const body = Buffer.from(ProtobufMetricsSerializer.serializeRequest(await session.collect())!);
    await session.shutdown();
    const expected =
      "1 data point(s) rejected: faultline.calls has AGGREGATION_TEMPORALITY_CUMULATIVE; only DELTA sums are stored: export delta sums (the OTLP metric exporter's temporalityPreference 'delta', or OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta)";

    const res = await post(body, PROTO_CT);
    expect(res.status).toBe(200);
    expect(metricsPartialSuccess(res.body)).toEqual({ rejectedDataPoints: 1, errorMessage: expected });
    const call = await exportMetricsRaw(collector.grpcUrl.replace('http://', ''), body, TOKEN);
    expect(call.code).toBe(0);
    expect(metricsPartialSuccess(call.response!)).toEqual({ rejectedDataPoints: 1, errorMessage: expected });
    const asJson = await post(
      metricsJson('cumulative-raw', [
        {
          name: 'faultline.failures',
          sum: {
            aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE',
            dataPoints: [{ asInt: '2', timeUnixNano: nowNanos() }],
          },
        },
      ]),
    );
    expect(json(asJson.body).partialSuccess).toMatchObject({ rejectedDataPoints: '1' });
    expect(json(asJson.body).partialSuccess.errorMessage).toContain(
      'faultline.failures has AGGREGATION_TEMPORALITY_CUMULATIVE',
    );
  });
});

describe('not a delta sum of counts', () => {
  it('refuses an up-down counter’s negative delta and a gauge, storing the valid points beside them', async () => {
    const session = countsSession(
      new JsonExporter({
        url: `${collector.url}/v1/metrics`,
        headers: { Authorization: `Bearer ${TOKEN}` },
        temporalityPreference: DELTA,
      }),
      'not-a-sum',
    );
    // An UpDownCounter is a non-monotonic Sum: its delta may be negative, which no count can be.
    session.meter.createUpDownCounter('faultline.calls').add(-3, { 'faultline.source': 'db' });
    session.meter.createGauge('faultline.failures').record(2, { 'faultline.class': 'transient' });
    const body = Buffer.from(ProtobufMetricsSerializer.serializeRequest(await session.collect())!);
    await session.shutdown();
    const res = await post(body, PROTO_CT);
    expect(res.status).toBe(200);
    const partial = metricsPartialSuccess(res.body);
    expect(partial.rejectedDataPoints).toBe(2);
    // The SDK exports an up-down counter cumulative even under a delta preference (the spec's
    // rule), and a gauge is no Sum: either reason comes first, both end in the same advice.
    expect(partial.errorMessage).toMatch(
      /^2 data point\(s\) rejected: faultline\.(calls|failures) .*export delta sums/,
    );

    const res2 = await post(
      metricsJson('not-a-sum', [
        deltaCalls([
          { asDouble: 'NaN', timeUnixNano: nowNanos() },
          { asDouble: 'Infinity', timeUnixNano: nowNanos() },
          { asInt: '-3', timeUnixNano: nowNanos() },
          { asInt: '4' },
          { asInt: '4', timeUnixNano: nowNanos(3 * 86_400) },
          { timeUnixNano: nowNanos() },
          {
            asInt: '5',
            timeUnixNano: nowNanos(),
            attributes: [{ key: 'faultline.source', value: { stringValue: 'db' } }],
          },
        ]),
      ]),
    );
    expect(res2.status).toBe(200);
    expect(json(res2.body).partialSuccess).toEqual({
      rejectedDataPoints: '6',
      errorMessage:
        '6 data point(s) rejected: a faultline.calls data point has value NaN: counts must be finite and >= 0',
    });
    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, 'not-a-sum')).toEqual([
      expect.objectContaining({ source: 'db', calls: 5, failures: 0 }),
    ]);
  });
});

describe('the token', () => {
  it('401 for a missing or wrong token: official exporters fail, nothing is stored', async () => {
    const http = countsSession(
      new ProtoExporter({
        url: `${collector.url}/v1/metrics`,
        headers: { Authorization: 'Bearer wrong' },
        temporalityPreference: DELTA,
      }),
      'wrong-token',
    );
    recordCalls(http, 1);
    const result = await http.exportNow();
    await http.shutdown();
    expect(result.ok).toBe(false);
    expect((result.error as Error & { code?: number }).code).toBe(401);

    const grpc = countsSession(
      new GrpcExporter({
        url: collector.grpcUrl,
        metadata: grpcMetadata('wrong'),
        temporalityPreference: DELTA,
      }),
      'wrong-token',
    );
    recordCalls(grpc, 1);
    const grpcResult = await grpc.exportNow();
    await grpc.shutdown();
    expect(grpcResult.ok).toBe(false);
    expect(String(grpcResult.error)).toMatch(/UNAUTHENTICATED|missing or wrong bearer token/);

    const res = await post(
      metricsJson('wrong-token', [deltaCalls([{ asInt: '1', timeUnixNano: nowNanos() }])]),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(json(res.body)).toEqual({
      code: 16,
      message: 'missing or wrong bearer token: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
    });
    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, 'wrong-token')).toEqual([]);
  });
});

describe('malformed and hostile bodies', () => {
  it('400 for bodies that are not an ExportMetricsServiceRequest, over HTTP and gRPC', async () => {
    const truncated = Buffer.from([0x0a, 0x20, 0x12, 0x05]);
    const proto = await post(truncated, PROTO_CT);
    expect(proto.status).toBe(400);
    expect(metricsStatus(proto.body)).toMatch(/invalid protobuf: message truncated/);
    const notJson = await post('{"resourceMetrics": [');
    expect(notJson.status).toBe(400);
    expect(json(notJson.body).message).toMatch(/^invalid JSON: /);
    const wrongType = await post(
      '{"resourceMetrics": [{"scopeMetrics": [{"metrics": [{"name": "faultline.calls", "sum": {"dataPoints": 5}}]}]}]}',
    );
    expect(wrongType.status).toBe(400);
    expect(json(wrongType.body)).toEqual({
      code: 3,
      message: 'resourceMetrics[0].scopeMetrics[0].metrics[0].sum.dataPoints: expected an array',
    });
    expect((await post('[]')).status).toBe(400);
    const corruptGzip = await post(Buffer.from('not gzip at all'), {
      ...JSON_CT,
      'content-encoding': 'gzip',
    });
    expect(corruptGzip.status).toBe(400);
    const call = await exportMetricsRaw(collector.grpcUrl.replace('http://', ''), truncated, TOKEN);
    expect(call.code).toBe(3); // INVALID_ARGUMENT
    expect(call.details).toMatch(/invalid protobuf/);
  });

  it('413 for a body over the limits (sent, inflated, or too many data points), like traces', async () => {
    const big = metricsJson('huge', [
      deltaCalls([
        {
          asInt: '1',
          timeUnixNano: nowNanos(),
          attributes: [{ key: 'x', value: { stringValue: 'y'.repeat(80 * 1024) } }],
        },
      ]),
    ]);
    const sent = await post(big);
    expect(sent.status).toBe(413);
    expect(json(sent.body).message).toMatch(/FAULTLINE_MAX_BODY_BYTES/);
    const bomb = await post(
      JSON.stringify({ resourceMetrics: [], pad: ' '.repeat(1024 * 1024) }),
      JSON_CT,
      true,
    );
    expect(bomb.status).toBe(413);
    expect(json(bomb.body).message).toMatch(/FAULTLINE_MAX_DECOMPRESSED_BYTES/);
    const points = Array.from({ length: 51 }, () => ({ asInt: '1', timeUnixNano: nowNanos() }));
    const many = await post(metricsJson('huge', [deltaCalls(points)]));
    expect(many.status).toBe(413);
    expect(json(many.body).message).toMatch(
      /more than 50 faultline\.\* data points.*FAULTLINE_MAX_SPANS_PER_REQUEST/,
    );
    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, 'huge')).toEqual([]);
  });

  it('cuts attribute values to the receiver’s limit and says so', async () => {
    const long = 'd'.repeat(5_000);
    const res = await post(
      metricsJson('hostile', [
        deltaCalls([
          {
            asInt: '2',
            timeUnixNano: nowNanos(),
            attributes: [
              { key: 'faultline.dependency', value: { stringValue: long } },
              {
                key: 'faultline.span_kind',
                value: { stringValue: "Client'); DROP TABLE call_counts_1m; --" },
              },
              {
                key: 'faultline.entry',
                value: { kvlistValue: { values: [{ key: 'a', value: { boolValue: true } }] } },
              },
            ],
          },
        ]),
      ]),
    );
    expect(res.status).toBe(200);
    expect(json(res.body).partialSuccess).toEqual({
      rejectedDataPoints: '0',
      errorMessage: '1 attribute value(s) truncated to 64 characters',
    });
    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, 'hostile')).toEqual([
      expect.objectContaining({
        dependency: 'd'.repeat(64),
        SpanKind: "Client'); DROP TABLE call_counts_1m; --",
        entry: false,
        calls: 2,
      }),
    ]);
  });
});

describe('HTTP answers beside the export', () => {
  it('415 for other content types, 405 for GET, 404 naming the signals for another OTLP path', async () => {
    const text = await post('x', { 'content-type': 'text/plain', Authorization: `Bearer ${TOKEN}` });
    expect(text.status).toBe(415);
    const get = await postTraces(collector.url, '', {}, { path: '/v1/metrics', method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const profiles = await postTraces(collector.url, '{}', JSON_CT, { path: '/v1/profiles' });
    expect(profiles.status).toBe(404);
    expect(json(profiles.body).detail).toBe(
      'no route for POST /v1/profiles; OTLP traces go to POST /v1/traces, metrics to POST /v1/metrics, logs to POST /v1/logs',
    );
  });

  it('counts the refusals on /metrics and /healthz', async () => {
    const scrape = await (
      await fetch(`${collector.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).text();
    const value = (series: string) => {
      const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    // 2 cumulative (exporters) + 3 (hand-made) + 2 (up-down, gauge) + 6 (bad values and times).
    expect(value('faultline_metric_points_rejected_total{reason="invalid"}')).toBe(13);
    expect(value('faultline_otlp_metrics_responses_total{code="401"}')).toBe(3);
    expect(value('faultline_otlp_metrics_responses_total{code="400"}')).toBe(6);
    expect(value('faultline_otlp_metrics_responses_total{code="413"}')).toBe(3);
    const health = await (await fetch(`${collector.url}/healthz`)).json();
    expect(health.metrics.rejected).toEqual({ invalid: 13, saturated: 0 });
  });
});

/** The message of a google.rpc.Status in protobuf (field 2). */
function metricsStatus(body: Buffer): string {
  const at = body.indexOf(0x12);
  return body.subarray(at + 2, at + 2 + body[at + 1]!).toString();
}
