import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

// Stock SDKs configured to capture headers, a careless log line, a connection string: a span is
// hostile input and may carry a credential anywhere. Planted in every place a span can hold text,
// none may be stored, so no console query, page or export can show one.
const STRIPE_KEY = 'sk_live_51HxQabcdefghijklmnopqrstuvwxyz0123';
const GITHUB_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const PASSWORD = 'hunter2-correct-horse';
const SESSION = 'sess-9f8e7d6c5b4a';

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('stored-secrets');
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

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const arr = (key: string, value: string) => ({
  key,
  value: { arrayValue: { values: [{ stringValue: value }] } },
});
const NOW_NS = BigInt(Date.now()) * 1_000_000n;

describe('credentials never stored', () => {
  it('redacts secret-named attributes and key shapes in every attribute, status message, event and link', async () => {
    const trace = newTraceId();
    const span = {
      traceId: trace,
      spanId: '00000000000000a1',
      name: 'POST',
      kind: 3,
      startTimeUnixNano: NOW_NS.toString(),
      endTimeUnixNano: (NOW_NS + 5_000_000n).toString(),
      attributes: [
        str('http.request.method', 'POST'),
        str('url.full', `https://api.stripe.com/v1/charges?api_key=${STRIPE_KEY}`),
        arr('http.request.header.authorization', `Bearer ${STRIPE_KEY}`),
        arr('http.request.header.cookie', `session=${SESSION}`),
        arr('http.request.header.x-api-key', 'plain-looking-value-42'),
        str('db.connection_string', `postgres://app:${PASSWORD}@db:5432/orders`),
        str('app.note', `retrying with token ${GITHUB_TOKEN}`),
        { key: 'http.response.status_code', value: { intValue: '401' } },
      ],
      status: { code: 2, message: `401 for Authorization: Bearer ${STRIPE_KEY}` },
      events: [
        {
          timeUnixNano: NOW_NS.toString(),
          name: 'exception',
          attributes: [
            str('exception.type', 'AuthenticationError'),
            str('exception.message', `Invalid API Key provided: ${STRIPE_KEY}`),
          ],
        },
      ],
      links: [
        { traceId: newTraceId(), spanId: '00000000000000b2', attributes: [str('app.password', PASSWORD)] },
      ],
    };
    const request = JSON.parse(jsonRequest('payments', [span])) as {
      resourceSpans: { resource: { attributes: unknown[] } }[];
    };
    request.resourceSpans[0]!.resource.attributes.push(str('deployment.secret', PASSWORD));
    const res = await postTraces(collector.url, JSON.stringify(request), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    await waitForInserted(collector.url);

    // Every stored column of the span and its failure row, as the console would return them.
    const stored = await ts.store.runReadOnly<Record<string, unknown>>(
      'SELECT * FROM otel_traces WHERE TraceId = {t:String}',
      { t: trace },
    );
    const failures = await ts.store.runReadOnly<Record<string, unknown>>(
      'SELECT * FROM failures WHERE TraceId = {t:String}',
      { t: trace },
    );
    expect(stored.rows).toHaveLength(1);
    expect(failures.rows).toHaveLength(1);
    const text = JSON.stringify([stored.rows, failures.rows]);
    for (const secret of [STRIPE_KEY, GITHUB_TOKEN, PASSWORD, SESSION, 'plain-looking-value-42']) {
      expect(text).not.toContain(secret);
    }
    const row = stored.rows[0] as { SpanAttributes: Record<string, string> };
    // What is not a secret stays readable: the method, the URL up to the key, the note's words.
    expect(row.SpanAttributes['http.request.method']).toBe('POST');
    expect(row.SpanAttributes['url.full']).toMatch(
      /^https:\/\/api\.stripe\.com\/v1\/charges\?api_key=\[REDACTED\]$/,
    );
    expect(row.SpanAttributes['app.note']).toMatch(/^retrying with token /);
    expect(row.SpanAttributes['http.request.header.authorization']).toBe('[REDACTED]');
    // The failure is still classified by what the span says.
    expect(failures.rows[0]).toMatchObject({ class: 'authentication', code: '401' });
  });
});
