import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_DEFAULTS, resolveReceiverConfig } from '../../src/config/receiver-config.js';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { DecodeBudget, DecodeBudgetError } from '../../src/ingest/decode-budget.js';
import { DECODED_BYTES_PER_BODY_BYTE } from '../../src/otlp/decoded-size.js';
import { largeJsonExport, postChunks, type RawResponse } from './helpers/large-export.js';
import { jsonRequest, newTraceId } from './helpers/otlp-client.js';
import { openTestStore, type TestStore } from './helpers/test-store.js';

const MiB = 1024 * 1024;
const settled = (p: Promise<unknown> | undefined) =>
  p === undefined
    ? Promise.resolve('granted')
    : p.then(
        () => 'granted',
        (e: Error) => e,
      );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DecodeBudget', () => {
  it('grants what fits at once and takes it back on release', () => {
    const budget = new DecodeBudget(100);
    const a = budget.lease();
    expect(a.reserve(60)).toBeUndefined();
    expect(a.reserve(40)).toBeUndefined();
    expect(budget.used).toBe(100);
    a.release();
    a.release(); // idempotent
    expect(budget.used).toBe(0);
  });

  it('serves waiters in arrival order; a newcomer that would fit does not pass an earlier waiter', async () => {
    const budget = new DecodeBudget(100, { maxWaitMs: 1_000 });
    const a = budget.lease();
    const b = budget.lease();
    const c = budget.lease();
    a.reserve(60);
    const order: string[] = [];
    const bWait = b.reserve(50)!.then(() => order.push('b'));
    const cWait = c.reserve(10)?.then(() => order.push('c'));
    expect(cWait).toBeDefined(); // 60 + 10 fits, but b came first
    expect(budget.waiting).toBe(2);
    a.release();
    await Promise.all([bWait, cWait]);
    expect(order).toEqual(['b', 'c']);
    expect(budget.used).toBe(60);
  });

  it('a request already holding budget goes before later arrivals', async () => {
    const budget = new DecodeBudget(100, { maxWaitMs: 1_000 });
    const first = budget.lease();
    const later = budget.lease();
    const other = budget.lease();
    first.reserve(20); // first's body is read
    other.reserve(70);
    const order: string[] = [];
    const laterWait = later.reserve(30)!.then(() => order.push('later'));
    const firstWait = first.reserve(30)!.then(() => order.push('first')); // asked second, arrived first
    other.release();
    await Promise.all([laterWait, firstWait]);
    expect(order).toEqual(['first', 'later']);
  });

  it('runs a request larger than the whole budget once it is alone, and nothing else meanwhile', async () => {
    const budget = new DecodeBudget(100, { maxWaitMs: 1_000 });
    const small = budget.lease();
    const huge = budget.lease();
    const after = budget.lease();
    small.reserve(10);
    const hugeWait = huge.reserve(250)!;
    const afterWait = after.reserve(1)!;
    small.release();
    await hugeWait;
    expect(budget.used).toBe(250);
    expect(budget.waiting).toBe(1); // `after` waits for the huge one
    huge.release();
    await afterWait;
    expect(budget.used).toBe(1);
  });

  it('refuses after waiting maxWaitMs in total, with a Retry-After, holding nothing afterwards', async () => {
    const budget = new DecodeBudget(100, { maxWaitMs: 150 });
    const holder = budget.lease();
    holder.reserve(100);
    const lease = budget.lease();
    const started = Date.now();
    const err = await settled(lease.reserve(1));
    expect(err).toBeInstanceOf(DecodeBudgetError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect((err as DecodeBudgetError).retryAfterSeconds).toBe(1);
    expect((err as Error).message).toMatch(
      /needs 1 bytes of the 100 bytes decode budget \(FAULTLINE_MAX_DECODE_BYTES\).*waited 1\d\d ms; retry after 1s/,
    );
    expect(lease.held).toBe(0);
    expect(budget.waiting).toBe(0);
    // The wait is a total: once spent, a later reservation that must wait is refused at once, and
    // what the lease held is returned.
    holder.release();
    lease.reserve(60);
    budget.lease().reserve(40);
    expect(await settled(lease.reserve(1))).toBeInstanceOf(DecodeBudgetError);
    expect(lease.held).toBe(0);
    expect(budget.used).toBe(40);
  });

  it('breaks a standstill at once: when every holder waits, the youngest are refused until the oldest fits', async () => {
    const budget = new DecodeBudget(100, { maxWaitMs: 5_000 });
    const [a, b, c] = [budget.lease(), budget.lease(), budget.lease()];
    a.reserve(30);
    b.reserve(30);
    c.reserve(30);
    const started = Date.now();
    const aWait = settled(a.reserve(50)); // needs b and c gone
    const bWait = settled(b.reserve(50));
    const cWait = settled(c.reserve(50));
    // a is oldest: c, then b are refused (their 30 bytes returned), and a runs.
    expect(await cWait).toBeInstanceOf(DecodeBudgetError);
    expect(await bWait).toBeInstanceOf(DecodeBudgetError);
    expect(await aWait).toBe('granted');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(budget.used).toBe(80);
    expect(b.held + c.held).toBe(0);
  });

  it('a release while waiting ends the wait; bad arguments are refused with the reason', async () => {
    const budget = new DecodeBudget(10, { maxWaitMs: 5_000 });
    budget.lease().reserve(10);
    const lease = budget.lease();
    const wait = settled(lease.reserve(5));
    lease.release();
    expect(await wait).toBeInstanceOf(DecodeBudgetError);
    expect(budget.waiting).toBe(0);
    expect(() => new DecodeBudget(0)).toThrow(/positive whole number of bytes, got 0/);
    expect(() => new DecodeBudget(1.5)).toThrow(/positive whole number of bytes/);
    expect(() => new DecodeBudget(10, { maxWaitMs: -1 })).toThrow(/maxWaitMs must be a non-negative number/);
    expect(() => budget.lease().reserve(-1)).toThrow(/cannot reserve -1 bytes/);
  });
});

describe('FAULTLINE_MAX_DECODE_BYTES', () => {
  it('defaults to 256 MiB and is read from the environment or the option', () => {
    expect(resolveReceiverConfig({}, {}).maxDecodeBytes).toBe(256 * MiB);
    expect(resolveReceiverConfig({}, { FAULTLINE_MAX_DECODE_BYTES: String(64 * MiB) }).maxDecodeBytes).toBe(
      64 * MiB,
    );
    expect(resolveReceiverConfig({ maxDecodeBytes: 2 * MiB }, {}).maxDecodeBytes).toBe(2 * MiB);
  });

  it.each([
    ['512MiB', /FAULTLINE_MAX_DECODE_BYTES must be a whole number, got "512MiB"/],
    ['1000', /FAULTLINE_MAX_DECODE_BYTES must be an integer from 1048576 to 1099511627776, got 1000/],
  ])('refuses %j', (raw, message) => {
    expect(() => resolveReceiverConfig({}, { FAULTLINE_MAX_DECODE_BYTES: raw })).toThrow(message);
  });
});

// The process's peak RSS, sampled from a worker thread: the main thread is blocked while it decodes,
// which is exactly when the peak happens.
function startRssSampler(): { peak(): Promise<number> } {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     let peak = process.memoryUsage.rss();
     const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 5);
     parentPort.on('message', () => { clearInterval(timer); parentPort.postMessage(peak); });`,
    { eval: true },
  );
  return {
    peak: () =>
      new Promise((resolve) => {
        worker.once('message', (peak: number) => {
          void worker.terminate();
          resolve(peak);
        });
        worker.postMessage('stop');
      }),
  };
}

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('decode-budget');
  // The defaults throughout: the bound under test is the documented one.
  collector = await startCollector({ port: 0, store: ts.store, writerOptions: { spoolDir: ts.spoolDir } });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

async function rowsByTrace(): Promise<Map<string, number>> {
  const { rows } = await ts.store.runReadOnly<{ TraceId: string; n: number }>(
    'SELECT TraceId, count() AS n FROM otel_traces GROUP BY TraceId',
  );
  return new Map(rows.map((r) => [r.TraceId, Number(r.n)]));
}

const GZIP_JSON = { 'content-type': 'application/json', 'content-encoding': 'gzip' };

function expect429(res: RawResponse): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const status = JSON.parse(res.body.toString());
  expect(status.code).toBe(8); // RESOURCE_EXHAUSTED
  expect(status.message).toMatch(/retry after \d+s/);
}

describe('receiver under the decode budget', () => {
  it('16 concurrent 56 MiB gzip exports: RSS stays under the documented bound, each is stored or refused with 429 + Retry-After', async () => {
    const SPANS = 9_000;
    const template = largeJsonExport('T'.repeat(32), SPANS, 53);
    const inflated = Buffer.byteLength(template);
    expect(inflated).toBeGreaterThan(50 * MiB);
    expect(inflated).toBeLessThan(RECEIVER_DEFAULTS.maxDecompressedBytes);
    const exportOf = (traceId: string) =>
      gzipSync(template.replaceAll('T'.repeat(32), traceId), { level: 1 });
    const traceIds = Array.from({ length: 16 }, () => newTraceId());
    const bodies = traceIds.map(exportOf);

    // Warm up: the engine's first large INSERT allocates memory it keeps for the next ones; the
    // bound is about what a burst adds to a collector that has ingested before.
    const warm = await postChunks(collector.url, [exportOf(newTraceId())], GZIP_JSON);
    expect(warm.status).toBe(200);
    await waitForInserted(collector.url);
    gc();
    const sampler = startRssSampler();
    await sleep(50);
    const baseline = process.memoryUsage.rss();

    const started = Date.now();
    const results = await Promise.all(bodies.map((b) => postChunks(collector.url, [b], GZIP_JSON)));
    const burstMs = Date.now() - started;
    await waitForInserted(collector.url);
    const peak = await sampler.peak();

    // The documented bound (README "Decode memory"): decoding holds at most the budget, or one
    // request alone when it is larger (here: gzip bytes + inflated × (1 + the JSON factor)); the
    // writer adds its queue, and the engine the INSERT of one segment.
    const oneRequest = bodies[0]!.length + inflated * (1 + DECODED_BYTES_PER_BODY_BYTE.json);
    const decodeBound = Math.max(RECEIVER_DEFAULTS.maxDecodeBytes, oneRequest);
    const bound = decodeBound + WRITER_QUEUE_BYTES + ENGINE_INSERT_BYTES;
    const growth = peak - baseline;
    const statuses = results.map((r) => r.status);
    console.log(
      `16 × ${(inflated / MiB).toFixed(1)} MiB gzip exports (${(bodies[0]!.length / MiB).toFixed(1)} MiB sent each): ` +
        `${statuses.filter((s) => s === 200).length} stored, ${statuses.filter((s) => s === 429).length} × 429 ` +
        `in ${burstMs} ms; RSS ${(baseline / MiB).toFixed(0)} → peak ${(peak / MiB).toFixed(0)} MiB ` +
        `(+${(growth / MiB).toFixed(0)} MiB; bound ${(bound / MiB).toFixed(0)} MiB)`,
    );
    expect(growth).toBeLessThan(bound);

    const stored = await rowsByTrace();
    for (const [i, res] of results.entries()) {
      if (res.status === 200) {
        expect(JSON.parse(res.body.toString())).toEqual({});
        expect(stored.get(traceIds[i]!)).toBe(SPANS);
      } else {
        expect429(res);
        expect(stored.get(traceIds[i]!)).toBeUndefined();
      }
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  });

  it('a request that cannot get budget waits, then gets 429 + Retry-After (counted); the one holding it, larger than the budget, runs alone', async () => {
    // A second receiver on the same writer, with the smallest budget: one slow upload fills it.
    const small = await startCollector({ port: 0, writer: collector.writer, maxDecodeBytes: 1 * MiB });
    try {
      const bigTrace = newTraceId();
      const spans = Array.from({ length: 3_000 }, (_, i) => ({
        traceId: bigTrace,
        spanId: (i + 1).toString(16).padStart(16, '0'),
        name: 'op',
        kind: 3,
        startTimeUnixNano: `${Date.now()}000000`,
        endTimeUnixNano: `${Date.now()}000001`,
        attributes: [{ key: 'pad', value: { stringValue: 'x'.repeat(600) } }],
      }));
      const big = Buffer.from(jsonRequest('slow', spans));
      // Larger than the whole budget; all but its last bytes are sent, then the upload stalls.
      const half = big.length - 1_000;
      expect(half).toBeGreaterThan(1 * MiB);
      let resumeUpload!: () => void;
      const uploadResumed = new Promise<void>((r) => {
        resumeUpload = r;
      });
      // No Content-Length: chunked, so its bytes are reserved as they arrive.
      const slow = postChunks(small.url, [big.subarray(0, half), big.subarray(half)], JSON_CT, (i) =>
        i === 1 ? uploadResumed : Promise.resolve(),
      );
      await sleep(300); // the first part is in, holding the whole budget

      const smallTrace = newTraceId();
      const started = Date.now();
      const refused = await postChunks(
        small.url,
        [Buffer.from(jsonRequest('small', [{ ...spans[0], traceId: smallTrace }]))],
        JSON_CT,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // waited its 2 s first
      expect429(refused);
      expect(JSON.parse(refused.body.toString()).message).toMatch(/FAULTLINE_MAX_DECODE_BYTES/);
      const metrics = await (await fetch(`${small.url}/metrics`)).text();
      expect(metrics).toContain('faultline_otlp_responses_total{code="429"} 1');

      resumeUpload();
      const done = await slow;
      expect(done.status).toBe(200);
      await waitForInserted(collector.url);
      const stored = await rowsByTrace();
      expect(stored.get(bigTrace)).toBe(3_000);
      expect(stored.get(smallTrace)).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('reads a gzip body of several members (its trailer understates the size) and a chunked body whole', async () => {
    const trace = newTraceId();
    const spans = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        traceId: trace,
        spanId: (from + i + 1).toString(16).padStart(16, '0'),
        name: 'op',
        kind: 3,
        startTimeUnixNano: `${Date.now()}000000`,
        endTimeUnixNano: `${Date.now()}000001`,
      }));
    // Members concatenated: gunzip yields their concatenation, whose size no single ISIZE states.
    const text = jsonRequest('members', spans(0, 300));
    const cut = Math.floor(text.length / 2);
    const members = Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]);
    expect(members.readUInt32LE(members.length - 4)).toBeLessThan(text.length);
    const a = await postChunks(collector.url, [members], GZIP_JSON);
    expect(a.status).toBe(200);

    const chunked = Buffer.from(jsonRequest('chunked', spans(300, 200)));
    const parts = [0, 1, 2, 3].map((k) =>
      chunked.subarray((k * chunked.length) / 4, ((k + 1) * chunked.length) / 4),
    );
    const b = await postChunks(collector.url, parts, JSON_CT);
    expect(b.status).toBe(200);
    await waitForInserted(collector.url);
    expect((await rowsByTrace()).get(trace)).toBe(500);
  });
});

const JSON_CT = { 'content-type': 'application/json' };
/** The writer's default `maxQueueBytes`: serialized rows waiting for their fsync. */
const WRITER_QUEUE_BYTES = 64 * MiB;
/**
 * Embedded chDB's memory for INSERTing one write-ahead segment (the writer's default 48 MiB), as
 * measured on this machine after a first insert (README "Decode memory").
 */
const ENGINE_INSERT_BYTES = 512 * MiB;
