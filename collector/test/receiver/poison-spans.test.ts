import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore, traceRows } from './helpers/test-store.js';

// Spans a buggy or hostile SDK sends, each well-formed OTLP, beside an honest client's spans in the
// same insert batch: each poison span is made valid by a documented rule or refused through
// partial_success before the acknowledgement, so the honest spans always land.
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('poison');
  // A long batch delay puts every request of a test into one INSERT, as under real load.
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 300 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const at = (offsetMs: number) => (NOW_NS + BigInt(offsetMs) * 1_000_000n).toString();
let n = 0;
const spanId = () => (++n).toString(16).padStart(16, '0');

function span(traceId: string, extra: Record<string, unknown>) {
  return {
    traceId,
    spanId: spanId(),
    name: 'op',
    kind: 3,
    startTimeUnixNano: at(0),
    endTimeUnixNano: at(5),
    ...extra,
  };
}

const json = { 'content-type': 'application/json' };

describe('one bad span never fails the insert of others', () => {
  it('refuses impossible start times span by span, normalises the rest, and stores every honest span', async () => {
    const honest = newTraceId();
    const poison = newTraceId();
    const honestSpans = Array.from({ length: 20 }, () => span(honest, {}));
    const refused = [
      span(poison, { startTimeUnixNano: '86400000000000', endTimeUnixNano: '86400500000000' }), // 1970-01-02
      span(poison, { startTimeUnixNano: '10413792000000000000', endTimeUnixNano: '10413792000500000000' }), // 2300-01-01
      span(poison, { startTimeUnixNano: '18446744073709551615', endTimeUnixNano: '18446744073709551615' }), // 2^64-1 ns
    ];
    const normalised = [
      span(poison, { name: 'no-start', startTimeUnixNano: undefined, endTimeUnixNano: at(7) }),
      span(poison, { name: 'no-times', startTimeUnixNano: undefined, endTimeUnixNano: undefined }),
      span(poison, { name: 'far-event', events: [{ timeUnixNano: '18446744073709551615', name: 'boom' }] }),
      span(poison, { name: 'lone \ud800 surrogate' }),
    ];
    const [a, b] = await Promise.all([
      postTraces(collector.url, jsonRequest('honest', honestSpans), json),
      postTraces(collector.url, jsonRequest('buggy', [...refused, ...normalised]), json),
    ]);
    expect(a.status).toBe(200);
    expect(JSON.parse(a.body.toString())).toEqual({});
    expect(b.status).toBe(200);
    const partial = JSON.parse(b.body.toString()).partialSuccess;
    expect(partial.rejectedSpans).toBe('3');
    expect(partial.errorMessage).toMatch(/outside the accepted range .*clock/);

    await waitForInserted(collector.url);
    expect(await traceRows(ts.store, honest)).toHaveLength(20);
    const stored = await traceRows(ts.store, poison);
    const byName = new Map(stored.map((r) => [String(r.SpanName), r]));
    expect([...byName.keys()].sort()).toEqual(
      ['far-event', 'lone \ufffd surrogate', 'no-start', 'no-times'].sort(),
    );
    // No start: it takes the end's time and lasts 0.
    expect(Number(byName.get('no-start')!.Duration)).toBe(0);
    // The event past 2262 is clamped to a day past the collector's clock.
    const eventText = String((byName.get('far-event')!['Events.Timestamp'] as string[])[0]);
    const eventSec = Date.parse(`${eventText.replace(' ', 'T').slice(0, 19)}Z`) / 1000;
    expect(Math.abs(eventSec - (Date.now() / 1000 + 86_400))).toBeLessThan(120);
    // Nothing was quarantined or left failing: the writer stored every acknowledged row.
    const stats = collector.writer.stats();
    expect(stats.insertErrors ?? 0).toBe(0);
    const health = JSON.parse(await (await fetch(`${collector.url}/healthz`)).text());
    expect(health.status).toBe('ok');
  });
});
