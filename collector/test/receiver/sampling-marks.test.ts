import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

// Spans sampled the OpenTelemetry way carry their threshold in the tracestate (`ot=th:c`: kept with
// probability 1/4, so each stands for 4). A malformed mark is hostile or buggy input: the span is
// stored all the same, weight 1, and counted where an operator looks (/metrics, /healthz).
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('sampling-marks');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const NOW_NS = BigInt(Date.now()) * 1_000_000n;
let n = 0;
const span = (traceId: string, traceState: string) => ({
  traceId,
  spanId: (++n).toString(16).padStart(16, '0'),
  name: 'op',
  kind: 3,
  startTimeUnixNano: NOW_NS.toString(),
  endTimeUnixNano: (NOW_NS + 5_000_000n).toString(),
  traceState,
});

describe('sampling marks at ingest', () => {
  it('stores every span, weighs the valid marks and counts the malformed ones', async () => {
    const trace = newTraceId();
    const spans = [
      span(trace, ''),
      span(trace, 'vendor=x'),
      span(trace, 'ot=th:c'),
      span(trace, 'vendor=x,ot=rv:abcdefabcdefab;th:8'),
      span(trace, 'ot=th:0'),
      span(trace, 'ot=th:NOPE'),
      span(trace, 'ot=th:123456789abcdef'),
    ];
    const res = await postTraces(collector.url, jsonRequest('sampled', spans), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({});
    await waitForInserted(collector.url);

    const { rows } = await ts.store.runReadOnly<{ TraceState: string; w: number; mark: string }>(
      `SELECT TraceState, faultline_sample_weight(TraceState) AS w, faultline_sample_mark(TraceState) AS mark
       FROM otel_traces WHERE TraceId = {t:String} ORDER BY SpanId`,
      { t: trace },
    );
    expect(rows.map((r) => [r.TraceState, r.w, r.mark])).toEqual([
      ['', 1, 'none'],
      ['vendor=x', 1, 'none'],
      ['ot=th:c', 4, 'valid'],
      ['vendor=x,ot=rv:abcdefabcdefab;th:8', 2, 'valid'],
      ['ot=th:0', 1, 'valid'],
      ['ot=th:NOPE', 1, 'invalid'],
      ['ot=th:123456789abcdef', 1, 'invalid'],
    ]);

    const health = JSON.parse((await fetch(`${collector.url}/healthz`).then((r) => r.text())) || '{}');
    expect(health.ingest.sampling).toEqual({ marked: 3, invalid: 2 });
    const metrics = await fetch(`${collector.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^faultline_spans_sampling_marked_total 3$/m);
    expect(metrics).toMatch(/^faultline_spans_sampling_mark_invalid_total 2$/m);
  });
});
