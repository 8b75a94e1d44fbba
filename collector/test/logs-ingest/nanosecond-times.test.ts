import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { otlpJsonToProtobuf } from '../golden/otlp-json-to-protobuf.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { otlpLogsJsonToProtobuf } from './helpers/otlp-logs-to-protobuf.js';
import { traceId } from './helpers/sdk-log-shapes.js';

// The 19-digit time, 1796000000123456789 ns, stored to the last nanosecond in
// DateTime64(9) for spans and log records alike: as an OTLP/JSON string, as a bare JSON number (which
// JSON.parse alone would round to …456768, quote-long-integers.ts), and as protobuf fixed64.
const NANOS = '1796000000123456789';
const LATER = '1796000000987654321';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('nanos');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

type Form = 'json string' | 'json number' | 'protobuf';
const FORMS: Form[] = ['json string', 'json number', 'protobuf'];

/** The body of a request whose int64 times are `"…"` strings, sent in `form`. */
function body(request: Record<string, unknown>, form: Form, encode: (r: Record<string, unknown>) => Buffer) {
  if (form === 'protobuf')
    return { body: encode(request), headers: { 'content-type': 'application/x-protobuf' } };
  const text = JSON.stringify(request);
  return {
    // A bare number is the raw text itself: no JS number ever holds it.
    body: form === 'json number' ? text.replace(/"(\d{19})"/g, '$1') : text,
    headers: { 'content-type': 'application/json' },
  };
}

async function nanos(query: string, id: string): Promise<Record<string, string>[]> {
  const { rows } = await ts.store.runReadOnly<Record<string, string>>(query, { id });
  return rows;
}

describe.each(FORMS)('times sent as %s', (form) => {
  it('keep every nanosecond in otel_traces: start, end, event', async () => {
    const id = traceId();
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nanos' } }] },
          scopeSpans: [
            {
              scope: { name: 'nanos' },
              spans: [
                {
                  traceId: id,
                  spanId: '0102030405060708',
                  name: 'op',
                  kind: 3,
                  startTimeUnixNano: NANOS,
                  endTimeUnixNano: LATER,
                  events: [{ timeUnixNano: LATER, name: 'e' }],
                },
              ],
            },
          ],
        },
      ],
    };
    const b = body(request, form, otlpJsonToProtobuf);
    if (form === 'json number') expect(b.body).toContain(`"startTimeUnixNano":${NANOS}`);
    const res = await postTraces(collector.url, b.body, b.headers);
    expect(res.status).toBe(200);
    await collector.settle();
    expect(
      await nanos(
        `SELECT toString(toUnixTimestamp64Nano(Timestamp)) AS start, toString(Duration) AS duration,
                toString(toUnixTimestamp64Nano(Events.Timestamp[1])) AS event
         FROM otel_traces WHERE TraceId = {id:String}`,
        id,
      ),
    ).toEqual([{ start: NANOS, duration: String(BigInt(LATER) - BigInt(NANOS)), event: LATER }]);
  });

  it('keep every nanosecond in otel_logs: the record time, or its observed time when it has none', async () => {
    const id = traceId();
    const request = {
      resourceLogs: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nanos' } }] },
          scopeLogs: [
            {
              scope: { name: 'nanos' },
              logRecords: [
                {
                  traceId: id,
                  spanId: '0102030405060708',
                  timeUnixNano: NANOS,
                  observedTimeUnixNano: LATER,
                  body: { stringValue: 'timed' },
                },
                {
                  traceId: id,
                  spanId: '0102030405060709',
                  observedTimeUnixNano: LATER,
                  body: { stringValue: 'observed' },
                },
              ],
            },
          ],
        },
      ],
    };
    const b = body(request, form, otlpLogsJsonToProtobuf);
    const res = await postTraces(collector.url, b.body, b.headers, { path: '/v1/logs' });
    expect(res.status).toBe(200);
    await collector.settle();
    expect(
      await nanos(
        `SELECT Body AS body, toString(toUnixTimestamp64Nano(Timestamp)) AS time, toBool(TimestampTime = toDateTime(Timestamp)) AS same_second
         FROM otel_logs WHERE TraceId = {id:String} ORDER BY body`,
        id,
      ),
    ).toEqual([
      { body: 'observed', time: LATER, same_second: true },
      { body: 'timed', time: NANOS, same_second: true },
    ]);
  });
});
