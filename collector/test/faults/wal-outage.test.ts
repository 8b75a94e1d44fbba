import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closedPort, type ShimProcess, startShim } from '../../../sql/test/support/shim-process.js';
import { makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import type { SpanWriter } from '../../src/types.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';

// The write-ahead mode (`ackAfter: 'wal'`) against a ClickHouse server that is down, then up:
// requests are acknowledged from the fsync'd log throughout, and every span lands exactly once,
// in the materialized views too, also across a writer restart.
let dir: string;
let port: number;
let store: Store;
let shim: ShimProcess | undefined;
let writer: SpanWriter;
const SERVICE = 'h10-wal-outage';

function request(): TraceRow[] {
  return Array.from({ length: 50 }, (_, i) =>
    i % 5 === 0
      ? makeFailureRow(
          { class: 'transient', source: 'db', code: '40001', retryable: 'true' },
          { ServiceName: SERVICE },
        )
      : makeRow({ ServiceName: SERVICE }),
  );
}

async function one(query: string): Promise<Record<string, number>> {
  const rs = await store.client.query({ query, query_params: { s: SERVICE }, format: 'JSONEachRow' });
  return (await rs.json<Record<string, number>>())[0]!;
}

const logFiles = () => readdirSync(join(dir, 'wal')).filter((f) => /\.(open|jsonl)$/.test(f));
const options = () => ({
  ackAfter: 'wal' as const,
  spoolDir: join(dir, 'wal'),
  maxBatchSpans: 200,
  maxBatchDelayMs: 20,
  retryDelayMs: 50,
  maxRetryDelayMs: 200,
  drainTimeoutMs: 500,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h10-wal-outage-'));
  port = await closedPort();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  store = await openStore({ url: `http://127.0.0.1:${port}` });
  writer = createSpanWriter(store, options());
});

afterAll(async () => {
  await writer?.close();
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("ackAfter: 'wal' with ClickHouse unreachable, then reachable", () => {
  it('acknowledges from the log while down, then inserts each span exactly once', {
    timeout: 60_000,
  }, async () => {
    await Promise.all(Array.from({ length: 20 }, () => writer.write(request())));
    // Let the inserter fail at least once against the closed port.
    await vi.waitFor(() => expect(writer.stats().insertErrors).toBeGreaterThan(0), { timeout: 10_000 });
    const during = writer.stats();
    expect([during.accepted, during.inserted, during.queueDepth]).toEqual([1000, 0, 1000]);
    expect(during.spoolDepth).toBe(1000); // reported as spooled while ClickHouse fails
    expect(logFiles().length).toBeGreaterThanOrEqual(1);
    expect(during.pendingInsert).toBe(1000);
    // settle() cannot succeed while ClickHouse is down: it says how many wait, why, and where.
    await expect(writer.settle({ timeoutMs: 300 })).rejects.toThrow(
      /1000 acknowledged spans are still not inserted after 300 ms; last insert error: .*durable in .*wal/s,
    );

    shim = await startShim(port, join(dir, 'clickhouse'));
    const settled = writer.settle({ timeoutMs: 30_000 });
    await settled;
    // Resolved only once everything acknowledged was inserted.
    expect(writer.stats()).toMatchObject({ inserted: 1000, pendingInsert: 0, queueDepth: 0 });
    expect(
      await one(
        'SELECT count() AS n, uniqExact(SpanId) AS ids FROM otel_traces WHERE ServiceName = {s:String}',
      ),
    ).toEqual({ n: 1000, ids: 1000 });
    expect(await one('SELECT count() AS n FROM failures WHERE ServiceName = {s:String}')).toEqual({ n: 200 });
    expect(await one('SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = {s:String}')).toEqual({
      n: 1000,
    });
    expect(writer.stats().spoolDepth).toBe(0);
    expect(logFiles()).toEqual([]);
  });

  it('a writer closed while ClickHouse is down leaves its log on disk; the next one inserts it once', {
    timeout: 60_000,
  }, async () => {
    await shim!.stop();
    await Promise.all(Array.from({ length: 6 }, () => writer.write(request())));
    await writer.close(); // gives up after drainTimeoutMs: nothing is lost, it stays on disk
    expect(writer.stats().queueDepth).toBe(300);
    expect(logFiles().length).toBeGreaterThanOrEqual(1);

    shim = await startShim(port, join(dir, 'clickhouse'));
    writer = createSpanWriter(store, options());
    expect(writer.stats().queueDepth).toBe(300);
    await vi.waitFor(() => expect(writer.stats().queueDepth).toBe(0), { timeout: 30_000, interval: 50 });
    expect(await one('SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}')).toEqual({
      n: 1300,
    });
    expect(await one('SELECT count() AS n FROM failures WHERE ServiceName = {s:String}')).toEqual({ n: 260 });
  });
});
