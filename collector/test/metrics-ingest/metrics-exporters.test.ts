import { Metadata } from '@grpc/grpc-js';
import { OTLPMetricExporter as GrpcExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter as JsonExporter,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { callCounts, rawCallCountRows } from './helpers/call-counts.js';
import { countsSession, scenarioRows, sendScenario } from './helpers/export-counts.js';

// Real clients (the official OTLP metric exporters over the SDK's own delta aggregation) → the
// collector's /v1/metrics and MetricsService → the count writer's log → call_counts_1m in chDB.
const TOKEN = 'metrics-test-token-0123456789abcdef';
const DELTA = AggregationTemporalityPreference.DELTA;
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('metrics');
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

const headers = { Authorization: `Bearer ${TOKEN}` };
const grpcMetadata = () => {
  const m = new Metadata();
  m.set('authorization', `Bearer ${TOKEN}`);
  return m;
};

const exporters: [string, () => PushMetricExporter][] = [
  [
    'protobuf',
    () => new ProtoExporter({ url: `${collector.url}/v1/metrics`, headers, temporalityPreference: DELTA }),
  ],
  [
    'protobuf+gzip',
    () =>
      new ProtoExporter({
        url: `${collector.url}/v1/metrics`,
        headers,
        temporalityPreference: DELTA,
        compression: 'gzip' as never,
      }),
  ],
  [
    'json',
    () => new JsonExporter({ url: `${collector.url}/v1/metrics`, headers, temporalityPreference: DELTA }),
  ],
  [
    'json+gzip',
    () =>
      new JsonExporter({
        url: `${collector.url}/v1/metrics`,
        headers,
        temporalityPreference: DELTA,
        compression: 'gzip' as never,
      }),
  ],
  [
    'grpc',
    () =>
      new GrpcExporter({ url: collector.grpcUrl, metadata: grpcMetadata(), temporalityPreference: DELTA }),
  ],
  [
    'grpc+gzip',
    () =>
      new GrpcExporter({
        url: collector.grpcUrl,
        metadata: grpcMetadata(),
        temporalityPreference: DELTA,
        compression: 'gzip' as never,
      }),
  ],
];

describe.each(exporters)('official OTLP metric exporter over %s', (label, makeExporter) => {
  it('stores the exact counts, summed per service, kind, source, dependency, class, code, entry, propagated', async () => {
    const service = `counts-${label}`;
    const session = countsSession(makeExporter(), service);
    const before = collector.countWriter!.stats().accepted;
    await sendScenario(session);
    await session.shutdown();
    // Two exports: 2 + 1 data points, then 4 (a delta export carries only what changed).
    expect(collector.countWriter!.stats().accepted - before).toBe(7);

    await collector.countWriter!.settle();
    expect(await callCounts(ts.store, service)).toEqual(scenarioRows(service));
    // Each row sits in the minute its interval ended in, which is now. (How many rows there are
    // depends on merges: SummingMergeTree folds rows of one key and minute together.)
    const raw = await rawCallCountRows(ts.store, service);
    expect(raw.length).toBeGreaterThan(0);
    const nowMinute = Math.floor(Date.now() / 60_000) * 60;
    for (const row of raw) expect(Math.abs(Number(row.minute) - nowMinute)).toBeLessThanOrEqual(60);
  });
});

describe('other metrics', () => {
  it('are accepted and ignored beside the counts; the answer says only the two are stored', async () => {
    const service = 'counts-mixed';
    const session = countsSession(
      new JsonExporter({ url: `${collector.url}/v1/metrics`, headers, temporalityPreference: DELTA }),
      service,
    );
    session.meter.createHistogram('http.server.request.duration').record(0.2, { 'http.route': '/pay' });
    session.meter.createCounter('orders.placed').add(4);
    session.meter.createCounter('faultline.calls').add(3, {
      'faultline.span_kind': 'Client',
      'faultline.source': 'db',
      'faultline.dependency': 'postgresql orders',
      'faultline.entry': false,
    });
    expect(await session.exportNow()).toEqual({ ok: true, error: undefined });
    await session.shutdown();
    // Both writers, as callers reading budgets right after an export use it.
    await collector.settle();
    expect(await callCounts(ts.store, service)).toEqual([
      expect.objectContaining({
        SpanKind: 'Client',
        source: 'db',
        dependency: 'postgresql orders',
        calls: 3,
      }),
    ]);

    // The same kind of export by hand, to read the partial_success the exporter only logs.
    const res = await postTraces(
      collector.url,
      JSON.stringify({
        resourceMetrics: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: 'process.cpu.time',
                    sum: { aggregationTemporality: 2, dataPoints: [{ asDouble: 1 }] },
                  },
                ],
              },
            ],
          },
        ],
      }),
      { 'content-type': 'application/json', ...headers },
      { path: '/v1/metrics' },
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({
      partialSuccess: {
        rejectedDataPoints: '0',
        errorMessage:
          'only faultline.calls and faultline.failures are stored; 1 data point(s) of other metrics were accepted and ignored (process.cpu.time)',
      },
    });
  });
});

describe('counters', () => {
  it('/metrics and /healthz count accepted, inserted, rejected and ignored data points', async () => {
    // The cross-process wait polls /healthz: it covers the data points too.
    await waitForInserted(collector.url);
    const scrape = await (await fetch(`${collector.url}/metrics`)).text();
    const value = (series: string) => {
      const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const accepted = collector.countWriter!.stats().accepted;
    expect(accepted).toBe(6 * 7 + 1);
    expect(value('faultline_metric_points_accepted_total')).toBe(accepted);
    expect(value('faultline_metric_points_inserted_total')).toBe(accepted);
    expect(value('faultline_metric_points_pending_insert')).toBe(0);
    // A histogram point, a counter point, and the cumulative sum of the hand-made request.
    expect(value('faultline_metric_points_ignored_total')).toBe(3);
    expect(value('faultline_metric_points_rejected_total{reason="invalid"}')).toBe(0);
    // 6 transports × 2 exports + 2 of the mixed case; the span counters did not move.
    expect(value('faultline_otlp_metrics_responses_total{code="200"}')).toBe(14);
    expect(value('faultline_spans_accepted_total')).toBe(0);

    const health = await (await fetch(`${collector.url}/healthz`)).json();
    expect(health.status).toBe('ok');
    expect(health.metrics).toMatchObject({
      status: 'ok',
      accepted,
      inserted: accepted,
      pendingInsert: 0,
      rejected: { invalid: 0, saturated: 0 },
      ignored: 3,
    });
  });
});
