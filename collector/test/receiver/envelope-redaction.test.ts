import { toRaw } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

// A span that brings its own envelope text (any SDK, or a hostile client) gets the preload's
// redaction and bounds at the collector: five planted secrets, none stored.
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('redact');
  collector = await startCollector({ port: 0, store: ts.store, writerOptions: { spoolDir: ts.spoolDir } });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const SECRETS = [
  'hunter2-planted',
  'sk_live_51Hplanted0123456789',
  'eyJhbGciOiJIUzI1NiJ9.planted.sig',
  'pg-planted-pw',
  'cookie-planted-value',
];
const now = BigInt(Date.now()) * 1_000_000n;

function span(traceId: string, spanId: string, attrs: Record<string, string>) {
  return {
    traceId,
    spanId,
    name: 'POST /charge',
    kind: 3,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 1_000_000n),
    status: { code: 2 },
    attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
  };
}

interface Stored {
  message: string;
  raw: string;
  failure_message: string;
}

async function stored(traceId: string): Promise<Stored[]> {
  const r = await ts.store.runReadOnly<Stored>(
    `SELECT SpanAttributes['faultline.message'] AS message, SpanAttributes['faultline.raw'] AS raw,
            (SELECT any(message) FROM failures WHERE TraceId = {t:String}) AS failure_message
     FROM otel_traces WHERE TraceId = {t:String} ORDER BY SpanId`,
    { t: traceId },
  );
  return r.rows;
}

describe("a span's own envelope text", () => {
  it('is redacted and bounded as the preload would, in otel_traces and failures', async () => {
    const traceId = newTraceId();
    const envelope = { 'faultline.class': 'permanent', 'faultline.source': 'http', 'faultline.code': '500' };
    const res = await postTraces(
      collector.url,
      jsonRequest('hostile-sdk', [
        span(traceId, '0000000000000001', {
          ...envelope,
          'faultline.message': `login failed password=${SECRETS[0]} key ${SECRETS[1]} Authorization: Bearer ${SECRETS[2]} ${'x'.repeat(5_000)}`,
          'faultline.raw': JSON.stringify({
            request: { headers: { authorization: `Bearer ${SECRETS[2]}`, cookie: SECRETS[4] } },
            dsn: `postgres://app:${SECRETS[3]}@db:5432/app`,
            body: `{"password": "${SECRETS[0]}"}`,
          }),
        }),
      ]),
    );
    expect(res.status).toBe(200);
    await collector.writer.settle();
    const [row] = await stored(traceId);
    const all = JSON.stringify(row);
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    expect(row!.message.length).toBeLessThanOrEqual(512);
    expect(row!.message).toMatch(/^login failed password=/);
    expect(row!.failure_message).toBe(row!.message);
    expect(JSON.parse(row!.raw)).toMatchObject({ request: { headers: {} } });
  });

  it("leaves the preload's own values as they were: already redacted and within bounds", async () => {
    const traceId = newTraceId();
    const raw = JSON.stringify(toRaw({ status: 503, body: { error: 'upstream busy' }, attempts: [1, 2] }));
    const res = await postTraces(
      collector.url,
      jsonRequest('preload-sdk', [
        span(traceId, '0000000000000002', {
          'faultline.class': 'transient',
          'faultline.source': 'http',
          'faultline.code': '503',
          'faultline.message': 'Service Unavailable: upstream busy',
          'faultline.raw': raw,
        }),
      ]),
    );
    expect(res.status).toBe(200);
    await collector.writer.settle();
    const [row] = await stored(traceId);
    expect([row!.message, row!.raw]).toEqual(['Service Unavailable: upstream busy', raw]);
  });
});
