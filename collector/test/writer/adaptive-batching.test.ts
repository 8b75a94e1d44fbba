import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { SaturatedError } from '../../src/writer/saturated-error.js';

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h7-adaptive-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function count(service: string): Promise<number> {
  const rs = await store.client.query({
    query: 'SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}',
    query_params: { s: service },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ n: number }>())[0]!.n;
}

const rowsFor = (service: string, n: number): TraceRow[] =>
  Array.from({ length: n }, () => makeRow({ ServiceName: service }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The store with every insert held at a gate until `open()`: a ClickHouse that is slow on demand. */
function gatedStore(): { store: Store; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const gated = Object.assign(Object.create(store) as Store, {
    ensureSchema: async () => {
      await gate;
    },
  });
  return { store: gated, open };
}

describe('adaptive batching (group commit)', () => {
  it.each([
    [true, 2],
    [false, 3],
  ])(
    'adaptiveBatching %s: writes that linger while the slot is busy go out as %i inserts',
    async (adaptive, inserts) => {
      const service = `adaptive-${adaptive}`;
      const slow = gatedStore();
      const writer = createSpanWriter(slow.store, {
        ackAfter: 'insert',
        spoolDir: join(dir, `spool-${service}`),
        maxConcurrentInserts: 1,
        maxBatchDelayMs: 10,
        adaptiveBatching: adaptive,
      });
      const first = writer.write(rowsFor(service, 5));
      await sleep(40); // sealed after 10 ms; its insert now holds the only slot
      const second = writer.write(rowsFor(service, 5));
      await sleep(40); // the linger ends while the slot is busy
      const third = writer.write(rowsFor(service, 5));
      await sleep(40);
      slow.open();
      await Promise.all([first, second, third]);
      const s = writer.stats();
      // Adaptive: the second and third writes kept filling one batch. Without: each sealed on its timer.
      expect(s.insertLatency.count).toBe(inserts);
      expect([s.accepted, s.inserted, s.queueDepth, s.queueBytes]).toEqual([15, 15, 0, 0]);
      expect(await count(service)).toBe(15);
      await writer.drain();
    },
  );

  it('seals a batch at maxBatchBytes without waiting for the linger', async () => {
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool-bytes'),
      maxBatchDelayMs: 60_000,
      maxBatchBytes: 1,
    });
    await Promise.all([writer.write(rowsFor('batch-bytes', 2)), writer.write(rowsFor('batch-bytes', 3))]);
    expect(writer.stats().insertLatency.count).toBe(2);
    expect(await count('batch-bytes')).toBe(5);
    await writer.drain();
  });
});

describe('memory bounded in bytes', () => {
  it('refuses a write that would pass maxQueueBytes, even under maxQueueSpans', async () => {
    const rows = rowsFor('queue-bytes', 10);
    const bytes = serializeRows(rows).length;
    const slow = gatedStore();
    const writer = createSpanWriter(slow.store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool-queue-bytes'),
      maxBatchDelayMs: 1,
      maxQueueSpans: 10_000,
      maxQueueBytes: bytes * 2,
      maxBatchBytes: bytes,
      retryAfterSeconds: 2,
    });
    const accepted = [writer.write(rows), writer.write(rowsFor('queue-bytes', 10))];
    expect(writer.stats().queueBytes).toBe(bytes * 2);
    const refused = writer.write(rowsFor('queue-bytes', 1));
    await expect(refused).rejects.toBeInstanceOf(SaturatedError);
    await expect(refused).rejects.toMatchObject({
      retryAfterSeconds: 2,
      message: expect.stringContaining(`maxQueueBytes ${bytes * 2}`),
    });
    slow.open();
    await Promise.all(accepted);
    expect(writer.stats().queueBytes).toBe(0);
    expect(writer.stats().rejected).toBe(1);
    expect(await count('queue-bytes')).toBe(20);
    await writer.drain();
  });

  it('rejects a batch byte size above the queue byte bound, naming both options', () => {
    expect(() =>
      createSpanWriter(store, { ackAfter: 'insert', maxBatchBytes: 10, maxQueueBytes: 5 }),
    ).toThrow(/maxBatchBytes \(10\) cannot exceed maxQueueBytes \(5\)/);
  });
});
