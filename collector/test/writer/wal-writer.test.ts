import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { embeddedRawInsert, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { resolveWriterOptions } from '../../src/writer/resolve-writer-options.js';
import { SaturatedError } from '../../src/writer/saturated-error.js';

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h10-wal-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function count(service: string, table = 'otel_traces'): Promise<number> {
  const rs = await store.client.query({
    query: `SELECT count() AS n FROM ${table} WHERE ServiceName = {s:String}`,
    query_params: { s: service },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ n: number }>())[0]!.n;
}

const rowsFor = (service: string, n: number, name = 'op'): TraceRow[] =>
  Array.from({ length: n }, () => makeRow({ ServiceName: service, SpanName: name }));
const walFiles = (spoolDir: string) => readdirSync(spoolDir).filter((f) => /\.(open|jsonl)$/.test(f));

/** The store with every insert held until `open()`: acknowledged rows exist only in the log. */
function gatedStore(): { store: Store; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  return { store: Object.assign(Object.create(store) as Store, { ensureSchema: () => gate }), open };
}

describe("ackAfter: 'wal'", () => {
  it('is the default, and FAULTLINE_WRITER_ACK still selects either mode', () => {
    const saved = process.env.FAULTLINE_WRITER_ACK;
    try {
      delete process.env.FAULTLINE_WRITER_ACK;
      expect(resolveWriterOptions({}).ackAfter).toBe('wal');
      process.env.FAULTLINE_WRITER_ACK = 'insert';
      expect(resolveWriterOptions({}).ackAfter).toBe('insert');
      process.env.FAULTLINE_WRITER_ACK = 'later';
      expect(() => resolveWriterOptions({})).toThrow(
        /FAULTLINE_WRITER_ACK\) must be "insert" or "wal", got "later"/,
      );
    } finally {
      if (saved === undefined) delete process.env.FAULTLINE_WRITER_ACK;
      else process.env.FAULTLINE_WRITER_ACK = saved;
    }
  });

  it('settle() resolves once every acknowledged span is queryable, without waiting for the linger', async () => {
    const writer = createSpanWriter(store, { spoolDir: join(dir, 'spool-settle'), maxBatchDelayMs: 60_000 });
    await Promise.all([writer.write(rowsFor('wal-settle', 30)), writer.write(rowsFor('wal-settle', 20))]);
    expect(writer.stats()).toMatchObject({ ackAfter: 'wal', accepted: 50, pendingInsert: 50 });
    const started = performance.now();
    await writer.settle();
    // The open segment is sealed for the caller instead of after its 60 s linger.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await count('wal-settle')).toBe(50);
    expect(writer.stats()).toMatchObject({ inserted: 50, pendingInsert: 0, queueDepth: 0 });
    await writer.drain();
  });

  it('acknowledges after the fsync, before any insert; concurrent writes share groups and inserts', async () => {
    const spoolDir = join(dir, 'spool-ack');
    const slow = gatedStore();
    const writer = createSpanWriter(slow.store, { ackAfter: 'wal', spoolDir, maxBatchDelayMs: 5 });
    await Promise.all(Array.from({ length: 20 }, () => writer.write(rowsFor('wal-ack', 50))));
    // All 1 000 spans are acknowledged and on disk; ClickHouse has none of them yet.
    expect(writer.stats()).toMatchObject({ accepted: 1000, inserted: 0, queueDepth: 1000 });
    expect(await count('wal-ack')).toBe(0);
    expect(walFiles(spoolDir).length).toBeGreaterThanOrEqual(1);
    slow.open();
    await vi.waitFor(async () => expect(await count('wal-ack')).toBe(1000), { timeout: 20_000 });
    await writer.drain();
    const s = writer.stats();
    expect([s.inserted, s.queueDepth, s.queueBytes]).toEqual([1000, 0, 0]);
    // 20 concurrent requests went in as at most two INSERTs (the first segment, then the rest).
    expect(s.insertLatency.count).toBeLessThanOrEqual(2);
    expect(await count('wal-ack', 'failures')).toBe(0);
    expect(walFiles(spoolDir)).toEqual([]);
  });

  it('refuses past maxWalBytes with SaturatedError, then accepts again once inserts catch up', async () => {
    const spoolDir = join(dir, 'spool-sat');
    const rows = rowsFor('wal-sat', 10);
    const bytes = serializeRows(rows).length;
    const slow = gatedStore();
    const writer = createSpanWriter(slow.store, {
      ackAfter: 'wal',
      spoolDir,
      maxWalBytes: bytes * 2,
      maxBatchBytes: bytes,
      retryAfterSeconds: 4,
    });
    await writer.write(rows);
    await writer.write(rowsFor('wal-sat', 10));
    const refused = writer.write(rowsFor('wal-sat', 1));
    await expect(refused).rejects.toBeInstanceOf(SaturatedError);
    await expect(refused).rejects.toMatchObject({
      retryAfterSeconds: 4,
      message: expect.stringContaining(`maxWalBytes ${bytes * 2}`),
    });
    expect(writer.stats()).toMatchObject({ rejected: 1, accepted: 20, queueBytes: bytes * 2 });
    slow.open();
    await vi.waitFor(() => expect(writer.stats().queueDepth).toBe(0), { timeout: 20_000 });
    await writer.write(rowsFor('wal-sat', 3));
    await writer.drain();
    expect(await count('wal-sat')).toBe(23);
  });

  it('inserts segments in the order their writes were acknowledged', async () => {
    const spoolDir = join(dir, 'spool-order');
    const raw = embeddedRawInsert(store.client)!;
    const seen: string[] = [];
    const real = raw.rawInsert.bind(raw);
    const recorder = vi.spyOn(raw, 'rawInsert').mockImplementation((params) => {
      const names = new Set(
        params.values
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as TraceRow).SpanName),
      );
      seen.push([...names].join(','));
      return real(params);
    });
    const slow = gatedStore();
    // Every write fills a segment (maxBatchSpans 5), so each is its own INSERT, queued behind the gate.
    const writer = createSpanWriter(slow.store, { ackAfter: 'wal', spoolDir, maxBatchSpans: 5 });
    for (let i = 0; i < 6; i++) await writer.write(rowsFor('wal-order', 5, `step-${i}`));
    slow.open();
    await writer.drain();
    recorder.mockRestore();
    expect(seen).toEqual(['step-0', 'step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
    expect(await count('wal-order')).toBe(30);
  });

  it('close stops at drainTimeoutMs; what is left stays on disk and a new writer inserts it once', async () => {
    const spoolDir = join(dir, 'spool-drain');
    const slow = gatedStore();
    const writer = createSpanWriter(slow.store, { ackAfter: 'wal', spoolDir, drainTimeoutMs: 100 });
    await writer.write(rowsFor('wal-drain', 7));
    const started = performance.now();
    // close() drains, then hands the directory's lock over: the next writer may take it.
    await writer.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(walFiles(spoolDir).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
    const next = createSpanWriter(store, { ackAfter: 'wal', spoolDir });
    await next.drain();
    expect(await count('wal-drain')).toBe(7);
    expect(walFiles(spoolDir)).toEqual([]);
    slow.open(); // the first writer's held insert lands now; its segment's token makes it a no-op
    await new Promise((r) => setTimeout(r, 300));
    expect(await count('wal-drain')).toBe(7);
  });

  it('recovers an open segment a crash left: complete lines only, a torn tail dropped', async () => {
    const spoolDir = join(dir, 'spool-torn');
    mkdirSync(spoolDir, { recursive: true });
    const body = serializeRows(rowsFor('wal-torn', 3));
    writeFileSync(join(spoolDir, '0000000000000001.open'), `${body}{"Timestamp":"17328`);
    const writer = createSpanWriter(store, { ackAfter: 'wal', spoolDir });
    await writer.drain();
    expect(await count('wal-torn')).toBe(3);
    expect(walFiles(spoolDir)).toEqual([]);
  });

  it("an 'insert'-mode writer over the same directory inserts a segment a 'wal' writer left open", async () => {
    const spoolDir = join(dir, 'spool-switch');
    mkdirSync(spoolDir, { recursive: true });
    writeFileSync(join(spoolDir, '0000000000000004.open'), serializeRows(rowsFor('wal-switch', 4)));
    const writer = createSpanWriter(store, { ackAfter: 'insert', spoolDir });
    await writer.write(rowsFor('wal-switch', 2));
    await writer.drain();
    expect(await count('wal-switch')).toBe(6);
    expect(walFiles(spoolDir)).toEqual([]);
  });

  it('rejects a bad ackAfter and a segment larger than the log bound, naming the option', () => {
    expect(() => createSpanWriter(store, { ackAfter: 'fsync' as 'wal' })).toThrow(
      /ackAfter \(env FAULTLINE_WRITER_ACK\) must be "insert" or "wal", got "fsync"/,
    );
    expect(() => createSpanWriter(store, { ackAfter: 'wal', maxBatchBytes: 10, maxWalBytes: 5 })).toThrow(
      /maxBatchBytes \(10\) cannot exceed maxWalBytes \(5\)/,
    );
  });
});

/** Runs wal-crash-child.ts; resolves with its stdout and exit signal. */
function child(args: string[], killAfter?: RegExp): Promise<{ out: string; signal: NodeJS.Signals | null }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'wal-crash-child.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stdout.on('data', (c) => {
    out += c;
    if (killAfter?.test(out)) proc.kill('SIGKILL');
  });
  proc.stderr.on('data', (c) => {
    out += c;
  });
  return new Promise((resolve) => proc.once('exit', (_code, signal) => resolve({ out, signal })));
}

describe('write-ahead log across kill -9', () => {
  it('killed between fsync and insert: a restart inserts every acknowledged span exactly once', {
    timeout: 120_000,
  }, async () => {
    const base = join(dir, 'crash-held');
    const args = [join(base, 'data'), join(base, 'spool')];
    const held = await child([...args, 'hold', 'crash-held', '40'], /acked \d+/);
    expect(held.signal, held.out).toBe('SIGKILL');
    expect(held.out).toContain('acked 2000');
    const replay = await child([...args, 'replay', 'crash-held', '0']);
    expect(replay.out).toContain('rows 2000 distinct 2000 left 0');
    expect(walFiles(join(base, 'spool'))).toEqual([]);
  });

  it('killed after an INSERT landed but before its segment was deleted: the replay is deduplicated', {
    timeout: 120_000,
  }, async () => {
    const base = join(dir, 'crash-inserted');
    const args = [join(base, 'data'), join(base, 'spool')];
    const crashed = await child([...args, 'crash-insert', 'crash-inserted', '20']);
    expect(crashed.signal, crashed.out).toBe('SIGKILL');
    expect(crashed.out).toContain('acked 1000');
    expect(walFiles(join(base, 'spool')).filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThanOrEqual(
      1,
    );
    const replay = await child([...args, 'replay', 'crash-inserted', '0']);
    expect(replay.out).toContain('rows 1000 distinct 1000 left 0');
  });
});
