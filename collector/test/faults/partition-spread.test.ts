import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { startLoad } from '../durability/helpers/span-load.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

// A client whose spans fall on 101 different days (over ClickHouse's max_partitions_per_insert_block
// of 100) beside honest exporters, all in the same inserts: the batch ClickHouse refuses is split
// until each part fits, so nothing is set aside, the honest spans land, and so do the odd ones.
let ts: TestStore;
let collector: Collector;
const DAY_NS = 86_400_000_000_000n;
const FIRST_DAY_NS = 1_700_000_000_000_000_000n; // 2023-11-14

beforeAll(async () => {
  ts = await openTestStore('spread');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 300 },
  });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(async () => {
  vi.restoreAllMocks();
  await collector?.close();
  await ts?.cleanup();
});

let request = 0;
/** One export of 101 spans, one per day over 101 consecutive days. */
function spreadBody(): string {
  request++;
  const spans = Array.from({ length: 101 }, (_, day) => {
    const start = FIRST_DAY_NS + BigInt(day) * DAY_NS + BigInt(request);
    return {
      traceId: `${'d'.repeat(24)}${request.toString(16).padStart(8, '0')}`,
      spanId: `${request.toString(16).padStart(8, '0')}${day.toString(16).padStart(8, '0')}`,
      name: 'spread',
      kind: 3,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 1_000n),
    };
  });
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'spread' } }] },
        scopeSpans: [{ spans }],
      },
    ],
  });
}

async function count(service: string): Promise<{ spans: number; days: number }> {
  const r = await ts.store.runReadOnly<{ spans: number; days: number }>(
    'SELECT count() AS spans, uniqExact(toDate(Timestamp)) AS days FROM otel_traces WHERE ServiceName = {s:String}',
    { s: service },
  );
  return { spans: Number(r.rows[0]!.spans), days: Number(r.rows[0]!.days) };
}

describe('a batch spanning more than 100 days', () => {
  it('beside honest exporters: split until it fits, every acknowledged span stored once, nothing set aside', async () => {
    const honest = startLoad(collector.url, 'honest-spread', 4);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${collector.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: spreadBody(),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      await new Promise((r) => setTimeout(r, 700));
    }
    await honest.stop();
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // Within seconds, not at the next restart.
    await collector.writer.settle({ timeoutMs: 15_000 });
    expect(honest.acked()).toBeGreaterThan(0);
    expect(await count('honest-spread')).toEqual({ spans: honest.acked(), days: 1 });
    expect(await count('spread')).toEqual({ spans: 5 * 101, days: 101 });
    const s = collector.writer.stats();
    expect(s.quarantined).toBe(0);
    expect(s.splitBatches).toBeGreaterThan(0); // the refused inserts happened, and were split
    const health = (await (await fetch(`${collector.url}/healthz`)).json()) as { status: string };
    expect(health.status).toBe('ok');
  }, 60_000);
});
