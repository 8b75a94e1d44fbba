import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { SaturatedError } from '../../src/writer/saturated-error.js';
import { Spool } from '../../src/writer/spool.js';

let dir: string;
let store: Store;

/** Each test tags its rows with its own service name so counts stay independent. */
async function count(service: string, table = 'otel_traces'): Promise<number> {
  const rs = await store.client.query({
    query: `SELECT count() AS n FROM ${table} WHERE ServiceName = {s:String}`,
    query_params: { s: service },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ n: number }>())[0]!.n;
}

async function callsSum(service: string): Promise<number> {
  const rs = await store.client.query({
    query: 'SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = {s:String}',
    query_params: { s: service },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ n: number }>())[0]!.n;
}

function rowsFor(service: string, n: number, failing = false): TraceRow[] {
  return Array.from({ length: n }, (_, i) =>
    failing
      ? makeFailureRow(
          { class: 'transient', source: 'http', code: '503', retryable: 'true' },
          { ServiceName: service },
        )
      : makeRow({ ServiceName: service, SpanName: `op-${i % 3}` }),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-writer-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('createSpanWriter', () => {
  it('batches by size: rows are queryable once write resolves, in ceil(n / maxBatchSpans) inserts', async () => {
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool-size'),
      maxBatchSpans: 100,
      maxBatchDelayMs: 60_000,
    });
    await Promise.all(Array.from({ length: 12 }, () => writer.write(rowsFor('size', 25))));
    // 12 × 25 rows seal exactly three batches of 100; nothing waits for the 60 s timer.
    expect(await count('size')).toBe(300);
    const s = writer.stats();
    expect(s.insertLatency.count).toBe(3);
    expect([s.accepted, s.inserted, s.spooled, s.queueDepth]).toEqual([300, 300, 0, 0]);
    await writer.drain();
  });

  it('batches by time: a small write is inserted after maxBatchDelayMs', async () => {
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool-time'),
      maxBatchDelayMs: 50,
    });
    const started = performance.now();
    await Promise.all([writer.write(rowsFor('time', 2)), writer.write(rowsFor('time', 3, true))]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(await count('time')).toBe(5);
    expect(await count('time', 'failures')).toBe(3);
    expect(writer.stats().insertLatency.count).toBe(1);
    await writer.drain();
  });

  it('refuses beyond maxQueueSpans with SaturatedError carrying Retry-After, instead of growing', async () => {
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir: join(dir, 'spool-sat'),
      maxBatchSpans: 50,
      maxQueueSpans: 100,
      maxBatchDelayMs: 60_000,
      retryAfterSeconds: 3,
    });
    const first = writer.write(rowsFor('sat', 40));
    const second = writer.write(rowsFor('sat', 40));
    const overflow = writer.write(rowsFor('sat', 40));
    await expect(overflow).rejects.toBeInstanceOf(SaturatedError);
    await expect(overflow).rejects.toMatchObject({
      retryAfterSeconds: 3,
      message: expect.stringContaining('maxQueueSpans 100'),
    });
    await Promise.all([first, second]);
    expect(writer.stats().rejected).toBe(40);
    expect(await count('sat')).toBe(80);
    await writer.drain();
  });

  it('spools while ClickHouse refuses inserts, answers only after fsync, then replays in order', async () => {
    const spoolDir = join(dir, 'spool-outage');
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir,
      maxBatchDelayMs: 5,
      retryDelayMs: 20,
      maxRetryDelayMs: 40,
    });
    await store.client.command({ query: 'RENAME TABLE otel_traces TO otel_traces_offline' });
    try {
      await writer.write(rowsFor('outage', 10, true));
      await writer.write(rowsFor('outage', 5));
      const s = writer.stats();
      expect(s.spooled).toBe(15);
      expect(s.accepted).toBe(15);
      expect(s.insertErrors).toBeGreaterThanOrEqual(1);
      expect(readdirSync(spoolDir).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
      expect(s.pendingInsert).toBe(15);
      await expect(writer.settle({ timeoutMs: 100 })).rejects.toThrow(
        /15 acknowledged spans are still not inserted after 100 ms; last insert error: .*otel_traces/s,
      );
    } finally {
      await store.client.command({ query: 'RENAME TABLE otel_traces_offline TO otel_traces' });
    }
    // settle() waits for the replay: the rows are queryable when it resolves, before any drain.
    await writer.settle();
    expect(await count('outage')).toBe(15);
    await writer.drain();
    const s = writer.stats();
    expect([s.replayed, s.spoolDepth, s.spoolBytes]).toEqual([15, 0, 0]);
    expect(await count('outage')).toBe(15);
    expect(await count('outage', 'failures')).toBe(10);
    expect(await callsSum('outage')).toBe(15);
    expect(readdirSync(spoolDir).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });

  it('no duplicates: a batch whose insert landed but whose answer was lost replays as a no-op, views included', async () => {
    const spoolDir = join(dir, 'spool-dedup');
    const body = serializeRows(rowsFor('dedup', 7, true));
    await insertBatch(store.client, body, { token: 'fl-lost-answer' });
    // The writer had spooled the same batch under the same token before it crashed.
    await new Spool(spoolDir).append(body, 7, 'fl-lost-answer');
    const writer = createSpanWriter(store, { ackAfter: 'insert', spoolDir });
    await writer.drain();
    expect(writer.stats().replayed).toBe(7);
    expect(await count('dedup')).toBe(7);
    expect(await count('dedup', 'failures')).toBe(7);
    expect(await callsSum('dedup')).toBe(7);
  });

  it('a new writer over a spool left by a previous process replays it on start', async () => {
    const spoolDir = join(dir, 'spool-restart');
    const spool = new Spool(spoolDir);
    await spool.append(serializeRows(rowsFor('restart', 4)), 4, 'fl-restart-1');
    await spool.append(serializeRows(rowsFor('restart', 6)), 6, 'fl-restart-2');
    const writer = createSpanWriter(store, { ackAfter: 'insert', spoolDir });
    expect(writer.stats().spoolDepth).toBe(10);
    await writer.drain();
    expect(await count('restart')).toBe(10);
    expect(writer.stats().spoolDepth).toBe(0);
  });

  it('sets aside only the row ClickHouse refuses, with its reason; its batch-mates and the batches behind still land', async () => {
    const spoolDir = join(dir, 'spool-poison');
    const spool = new Spool(spoolDir);
    // One acknowledged batch: 4 good rows around one ClickHouse cannot parse, then a clean batch.
    const good = serializeRows(rowsFor('poison-mates', 4)).split('\n');
    const bad = '{"Timestamp":"not a time","ServiceName":"poison"}';
    await spool.append([good[0], good[1], bad, good[2], good[3], ''].join('\n'), 5, 'fl-poison');
    await spool.append(serializeRows(rowsFor('after-poison', 3)), 3, 'fl-after-poison');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir,
      retryDelayMs: 5,
      maxRetryDelayMs: 5,
    });
    await writer.settle();
    logged.mockRestore();
    const s = writer.stats();
    expect([s.quarantined, s.inserted]).toEqual([1, 7]);
    expect(s.lastQuarantine).toMatchObject({ rows: 1, reason: expect.stringContaining('CANNOT_PARSE') });
    const [file] = readdirSync(join(spoolDir, 'rejected'));
    const kept = readFileSync(join(spoolDir, 'rejected', file!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(kept).toEqual([{ reason: expect.stringContaining('DateTime'), row: JSON.parse(bad) }]);
    expect(await count('poison-mates')).toBe(4);
    expect(await count('after-poison')).toBe(3);
    await writer.drain();
  });

  it('bounds the spool too: past maxSpoolBytes, writes are refused until replay catches up', async () => {
    const spoolDir = join(dir, 'spool-full');
    const writer = createSpanWriter(store, {
      ackAfter: 'insert',
      spoolDir,
      maxBatchDelayMs: 1,
      maxSpoolBytes: 1_000,
      retryDelayMs: 20,
    });
    await store.client.command({ query: 'RENAME TABLE otel_traces TO otel_traces_offline' });
    try {
      await writer.write(rowsFor('spool-full', 5));
      await expect(writer.write(rowsFor('spool-full', 5))).rejects.toMatchObject({
        name: 'SaturatedError',
        retryAfterSeconds: 5,
        message: expect.stringContaining('maxSpoolBytes 1000'),
      });
    } finally {
      await store.client.command({ query: 'RENAME TABLE otel_traces_offline TO otel_traces' });
    }
    await writer.drain();
    expect(await count('spool-full')).toBe(5);
    await writer.write(rowsFor('spool-full', 1));
    expect(await count('spool-full')).toBe(6);
  });

  it('rejects rows that are not JSON-serializable instead of throwing synchronously', async () => {
    const writer = createSpanWriter(store, { ackAfter: 'insert', spoolDir: join(dir, 'spool-bad') });
    const bad = { ...makeRow(), Duration: 1n } as unknown as TraceRow;
    await expect(writer.write([bad])).rejects.toThrow(/rows must be JSON-serializable TraceRow objects/);
    expect(writer.stats().queueDepth).toBe(0);
  });

  it('rejects bad options with a message naming the option', () => {
    expect(() => createSpanWriter(store, { ackAfter: 'insert', maxBatchSpans: 0 })).toThrow(
      /maxBatchSpans must be a positive number/,
    );
    expect(() =>
      createSpanWriter(store, { ackAfter: 'insert', maxBatchSpans: 10, maxQueueSpans: 5 }),
    ).toThrow(/cannot exceed maxQueueSpans/);
  });
});
