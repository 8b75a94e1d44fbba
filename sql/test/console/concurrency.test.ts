import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { ConsoleBusyError, ConsoleGate } from '../../src/console/console-gate.js';
import type { Store } from '../../src/types.js';
import { makeRow } from '../support/trace-row-fixture.js';
import { type ConsoleStore, openConsoleStore, SEEDED, seedCalls } from './helpers/console-store.js';

// One heavy console statement neither stalls ingest nor queues other console users behind it:
// it runs on one thread in one of two console slots, on a session of its own. Measured here on a
// shared, noisy machine, so the bounds are generous and the figures are printed.
let cs: ConsoleStore;
let store: Store;

beforeAll(async () => {
  cs = await openConsoleStore('concurrency');
  store = cs.store;
  await seedCalls(store);
});

afterAll(async () => {
  await cs?.close();
});

const HEAVY = 'SELECT count() FROM numbers(100000000000) WHERE NOT ignore(sipHash64(number))';
const batch = () =>
  serializeRows(Array.from({ length: 500 }, () => makeRow({ ServiceName: 'concurrency-ingest' })));

async function timed(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b);
}

const p50 = (ms: number[]) => ms[Math.floor(ms.length / 2)]!;
const max = (ms: number[]) => ms.at(-1)!;
const fmt = (ms: number[]) => `p50 ${p50(ms).toFixed(1)} ms, max ${max(ms).toFixed(1)} ms`;

describe('a heavy console statement', () => {
  it('leaves SELECT 1, named queries and ingest fast (figures printed)', async () => {
    const selectOne = () => store.runReadOnly('SELECT 1');
    const named = () =>
      store.runNamed('top_failure_classes', { from: SEEDED.from, to: SEEDED.to, service: '' });
    const ingest = () => insertBatch(store.client, batch());
    await selectOne();
    const idle = {
      select: await timed(30, selectOne),
      named: await timed(10, named),
      ingest: await timed(5, ingest),
    };

    const abort = new AbortController();
    const heavy = store.runReadOnly(HEAVY, {}, { maxExecutionSeconds: 30, signal: abort.signal });
    heavy.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    const busy = {
      select: await timed(20, selectOne),
      named: await timed(10, named),
      ingest: await timed(5, ingest),
    };
    abort.abort();
    await expect(heavy).rejects.toThrow(/cancelled/);

    console.log(
      [
        'console: per-statement overhead and latency beside a heavy console statement (one thread, own session)',
        `  SELECT 1 via the console   idle ${fmt(idle.select)} | beside heavy ${fmt(busy.select)}`,
        `  named query (dashboard)    idle ${fmt(idle.named)} | beside heavy ${fmt(busy.named)}`,
        `  INSERT 500 spans (ingest)  idle ${fmt(idle.ingest)} | beside heavy ${fmt(busy.ingest)}`,
      ].join('\n'),
    );
    expect(max(busy.select)).toBeLessThan(2_000);
    expect(max(busy.named)).toBeLessThan(5_000);
    expect(max(busy.ingest)).toBeLessThan(5_000);
  });

  it('a second runs beside it; a third waits for a slot and then runs', async () => {
    const first = store.runReadOnly(HEAVY, {}, { maxExecutionSeconds: 2 });
    const second = store.runReadOnly(HEAVY, {}, { maxExecutionSeconds: 2 });
    first.catch(() => {});
    second.catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    const third = await store.runReadOnly('SELECT 1 AS one');
    const waited = performance.now() - started;
    console.log(`console: with both slots taken, a third statement waited ${waited.toFixed(0)} ms for one`);
    expect(third.rows).toEqual([{ one: 1 }]);
    expect(waited).toBeGreaterThan(1_000);
    await expect(first).rejects.toThrow(/Timeout exceeded|Estimated query execution time/);
    await expect(second).rejects.toThrow(/Timeout exceeded|Estimated query execution time/);
  });
});

describe('ConsoleGate', () => {
  it('hands a slot to the first in line, refuses as busy after the wait, honours abort', async () => {
    const gate = new ConsoleGate(1, 150);
    const leave = await gate.enter();
    const order: string[] = [];
    const inLine = (name: string) =>
      gate.enter().then((l) => {
        order.push(name);
        return l;
      });
    const first = inLine('first');
    const second = inLine('second');
    const abort = new AbortController();
    const aborted = gate.enter(abort.signal);
    abort.abort();
    await expect(aborted).rejects.toThrow();
    leave();
    leave(); // twice: the second call does nothing
    const leaveFirst = await first;
    await expect(second).rejects.toBeInstanceOf(ConsoleBusyError);
    expect(order).toEqual(['first']);
    expect(gate.running).toBe(1);
    leaveFirst();
    expect(gate.running).toBe(0);
  });
});
