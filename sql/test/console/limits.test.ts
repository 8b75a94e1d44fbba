import { Session } from 'chdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/types.js';
import { type ConsoleStore, openConsoleStore } from './helpers/console-store.js';

// Row, byte, time and memory limits are the engine's, fixed when the statement's session opens
// (readonly = 1, so nothing in the statement can change them); results stream and stop at the
// cap; a statement whose caller goes away is stopped in the engine.
let cs: ConsoleStore;
let store: Store;
let observer: Session;
const MiB = 1024 * 1024;

beforeAll(async () => {
  cs = await openConsoleStore('limits');
  store = cs.store;
  // Another session on the engine, to watch system.processes (the console may not).
  observer = new Session(cs.dataDir);
});

afterAll(async () => {
  observer?.close();
  await cs?.close();
});

const HEAVY = 'SELECT count() FROM numbers(100000000000) WHERE NOT ignore(sipHash64(number))';

async function consoleProcesses(): Promise<Record<string, string>[]> {
  const r = await observer.queryAsync(
    "SELECT Settings FROM system.processes WHERE Settings['log_comment'] LIKE 'faultline-console:%'",
    { format: 'JSONEachRow' },
  );
  return r
    .text()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { Settings: Record<string, string> }).Settings);
}

async function waitFor<T>(what: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('rows and bytes', () => {
  it('a 10 000 000-row result stops at the row cap, streamed, with bounded memory', async () => {
    const rss = process.memoryUsage().rss;
    let started = performance.now();
    const r = await store.runReadOnly(
      "SELECT number, toString(number) AS s, repeat('x', 64) AS pad FROM numbers(10000000)",
    );
    const ms = performance.now() - started;
    expect(r.rows).toHaveLength(10_000);
    expect(r.truncated).toBe(true);
    started = performance.now();
    const sorted = await store.runReadOnly('SELECT number FROM numbers(10000000) ORDER BY number DESC');
    const sortedMs = performance.now() - started;
    expect(sorted.rows[0]).toEqual({ number: 9_999_999 });
    expect(sorted.rows).toHaveLength(10_000);
    const endless = await store.runReadOnly('SELECT number FROM system.numbers');
    expect(endless.rows).toHaveLength(10_000);
    const grown = (process.memoryUsage().rss - rss) / MiB;
    console.log(
      `console: 10M-row SELECT capped at 10 000 rows in ${ms.toFixed(0)} ms, 10M-row ORDER BY in ${sortedMs.toFixed(0)} ms; RSS +${grown.toFixed(0)} MiB`,
    );
    expect(grown).toBeLessThan(300);
  });

  it('a result over the byte cap is cut (truncated) instead of held whole', async () => {
    const r = await store.runReadOnly(
      "SELECT repeat('x', 10000) AS s FROM numbers(100000)",
      {},
      { maxResultBytes: MiB },
    );
    expect(r.truncated).toBe(true);
    expect(r.rows.length).toBeLessThan(150);
    expect(r.rows.length).toBeGreaterThan(50);
  });
});

describe('time and memory', () => {
  it('a statement past its time limit fails in the engine', async () => {
    const started = Date.now();
    await expect(store.runReadOnly(HEAVY, {}, { maxExecutionSeconds: 1 })).rejects.toThrow(
      /Timeout exceeded|Estimated query execution time/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a statement over its memory limit fails in the engine', async () => {
    await expect(
      store.runReadOnly(
        'SELECT groupArray(number) FROM numbers(100000000)',
        {},
        { maxMemoryBytes: 64 * MiB },
      ),
    ).rejects.toThrow(/MEMORY_LIMIT_EXCEEDED|Memory limit/i);
  });

  it('the engine holds the limits: the running statement is readonly = 1, one thread, capped', async () => {
    const abort = new AbortController();
    const heavy = store.runReadOnly(
      HEAVY,
      {},
      { maxRows: 123, maxExecutionSeconds: 20, signal: abort.signal },
    );
    heavy.catch(() => {});
    const [settings] = await waitFor(async () => {
      const p = await consoleProcesses();
      return p.length ? p : undefined;
    });
    abort.abort();
    await expect(heavy).rejects.toThrow(/cancel/i);
    expect(settings).toMatchObject({
      readonly: '1',
      max_threads: '1',
      max_result_rows: '124',
      result_overflow_mode: 'break',
      max_execution_time: '20',
      max_memory_usage: String(512 * MiB),
    });
  });
});

describe('cancellation', () => {
  it('a statement whose caller goes away is stopped in the engine at once', async () => {
    const abort = new AbortController();
    const heavy = store.runReadOnly(HEAVY, {}, { maxExecutionSeconds: 30, signal: abort.signal });
    heavy.catch(() => {});
    await waitFor(async () => ((await consoleProcesses()).length ? true : undefined));
    const started = performance.now();
    abort.abort();
    await expect(heavy).rejects.toThrow(/cancelled/);
    const settledMs = performance.now() - started;
    await waitFor(async () => ((await consoleProcesses()).length === 0 ? true : undefined), 3000);
    const goneMs = performance.now() - started;
    console.log(
      `console: aborted statement settled ${settledMs.toFixed(0)} ms after the abort, gone from system.processes after ${goneMs.toFixed(0)} ms`,
    );
    expect(goneMs).toBeLessThan(3000);
    // Its slot is free again.
    expect((await store.runReadOnly('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a caller gone before the statement starts never runs it', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(store.runReadOnly('SELECT 1', {}, { signal: abort.signal })).rejects.toThrow();
  });
});
