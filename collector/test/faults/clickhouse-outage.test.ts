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

let dir: string;
let port: number;
let store: Store;
let shim: ShimProcess | undefined;
let writer: SpanWriter;

/** 50 spans per request, one in five a classified failure. */
function request(service: string): TraceRow[] {
  return Array.from({ length: 50 }, (_, i) =>
    i % 5 === 0
      ? makeFailureRow(
          { class: 'transient', source: 'db', code: '40001', retryable: 'true' },
          { ServiceName: service },
        )
      : makeRow({ ServiceName: service }),
  );
}

async function one<T>(query: string, service: string): Promise<T> {
  const rs = await store.client.query({ query, query_params: { s: service }, format: 'JSONEachRow' });
  return (await rs.json<T>())[0]!;
}

const spoolFiles = () => readdirSync(join(dir, 'spool')).filter((f) => f.endsWith('.jsonl'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-faults-'));
  port = await closedPort();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  // Nothing listens on the port: the store opens anyway and defers the schema to first use.
  store = await openStore({ url: `http://127.0.0.1:${port}` });
  writer = createSpanWriter(store, {
    ackAfter: 'insert',
    spoolDir: join(dir, 'spool'),
    maxBatchSpans: 200,
    maxBatchDelayMs: 20,
    retryDelayMs: 50,
    maxRetryDelayMs: 200,
  });
});

afterAll(async () => {
  await writer?.close();
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('ClickHouse server unreachable, then reachable', () => {
  it('acknowledges every request from the fsync’d spool, then replays each span exactly once', async () => {
    await Promise.all(Array.from({ length: 20 }, () => writer.write(request('outage-a'))));
    const during = writer.stats();
    expect([during.accepted, during.spooled, during.inserted]).toEqual([1000, 1000, 0]);
    expect(spoolFiles().length).toBeGreaterThanOrEqual(5);

    shim = await startShim(port, join(dir, 'clickhouse'));
    await vi.waitFor(() => expect(writer.stats().spoolDepth).toBe(0), { timeout: 30_000, interval: 50 });

    const got = await one<{ n: number; ids: number }>(
      'SELECT count() AS n, uniqExact(SpanId) AS ids FROM otel_traces WHERE ServiceName = {s:String}',
      'outage-a',
    );
    expect(got).toEqual({ n: 1000, ids: 1000 });
    expect(await one('SELECT count() AS n FROM failures WHERE ServiceName = {s:String}', 'outage-a')).toEqual(
      { n: 200 },
    );
    expect(
      await one('SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = {s:String}', 'outage-a'),
    ).toEqual({ n: 1000 });
    expect(writer.stats().replayed).toBe(1000);
    expect(spoolFiles()).toEqual([]);

    // Recovered: new requests go straight in.
    await writer.write(request('outage-a'));
    expect(
      await one('SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}', 'outage-a'),
    ).toEqual({ n: 1050 });
    expect(writer.stats().spooled).toBe(1000);
  });

  it('after a restart, a new writer over the same spool replays what the previous one accepted', async () => {
    await shim!.stop();
    await Promise.all(Array.from({ length: 6 }, () => writer.write(request('outage-b'))));
    await writer.close();
    expect(writer.stats().spoolDepth).toBe(300);

    shim = await startShim(port, join(dir, 'clickhouse'));
    writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool'),
      retryDelayMs: 50,
      maxRetryDelayMs: 200,
    });
    expect(writer.stats().spoolDepth).toBe(300);
    await vi.waitFor(() => expect(writer.stats().spoolDepth).toBe(0), { timeout: 30_000, interval: 50 });
    expect(
      await one('SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}', 'outage-b'),
    ).toEqual({ n: 300 });
    expect(
      await one('SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}', 'outage-a'),
    ).toEqual({ n: 1050 });
  });
});

describe('server mode through the same @clickhouse/client code path', () => {
  it('runs named queries with typed parameters', async () => {
    const { rows } = await store.runNamed<{ class: string; failures: number }>('top_failure_classes', {
      from: new Date(Date.UTC(2026, 10, 29)),
      to: new Date(Date.UTC(2026, 10, 30)),
      service: 'outage-b',
    });
    expect(rows).toMatchObject([{ class: 'transient', failures: 60 }]);
  });

  it('the SQL console refuses writes and caps rows', async () => {
    await expect(store.runReadOnly('DROP TABLE otel_traces')).rejects.toThrow(/readonly/i);
    const capped = await store.runReadOnly<{ number: number }>(
      'SELECT number FROM system.numbers LIMIT 50',
      {},
      { maxRows: 10 },
    );
    expect(capped.rows).toHaveLength(10);
    expect(capped.truncated).toBe(true);
  });
});
