import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { startLoad } from '../durability/helpers/span-load.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { mountReadOnly } from './read-only-mount.js';

// A full or remounted disk under load, for real: ClickHouse's data directory, then the
// write-ahead log's, made read-only for a few seconds while exporters keep sending. Nothing
// acknowledged may be set aside or lost, /healthz must say "degraded" while acknowledged spans
// are not stored, and afterwards every acknowledged span is stored exactly once.
let ts: TestStore;
let collector: Collector;
let restore: (() => void) | undefined;
const FAULT_MS = 4_000;

beforeAll(async () => {
  ts = await openTestStore('rodisk');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, retryDelayMs: 50, maxRetryDelayMs: 250 },
  });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterAll(async () => {
  restore?.();
  vi.restoreAllMocks();
  await collector?.close();
  await ts?.cleanup();
});

interface Health {
  status: string;
  problems: string[];
  ingest: { quarantine: { spans: number }; walError: { spans: number } | null; pending: number };
}

async function health(): Promise<Health> {
  return (await (await fetch(`${collector.url}/healthz`)).json()) as Health;
}

/**
 * Samples /healthz every 100 ms for `ms`, and longer (up to 30 s) until `seen` holds: on a loaded
 * machine the fault may need more than `ms` to show (a segment is sealed only when it is due).
 */
async function sampleHealth(ms: number, done: (seen: Health[]) => boolean = () => true): Promise<Health[]> {
  const seen: Health[] = [];
  const start = Date.now();
  while (Date.now() - start < ms || (!done(seen) && Date.now() - start < 30_000)) {
    seen.push(await health());
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

async function stored(service: string): Promise<{ spans: number; ids: number; calls: number }> {
  const r = await ts.store.runReadOnly<{ spans: number; ids: number; calls: number }>(
    `SELECT
       (SELECT count() FROM otel_traces WHERE ServiceName = {s:String}) AS spans,
       (SELECT uniqExact(SpanId) FROM otel_traces WHERE ServiceName = {s:String}) AS ids,
       (SELECT sum(calls) FROM calls_1m WHERE ServiceName = {s:String}) AS calls`,
    { s: service },
  );
  const row = r.rows[0]!;
  return { spans: Number(row.spans), ids: Number(row.ids), calls: Number(row.calls) };
}

/** Load, then the fault for FAULT_MS with /healthz sampled, then healed, then more load. */
async function underFault(service: string, dir: string, done?: (seen: Health[]) => boolean) {
  const load = startLoad(collector.url, service, 4);
  await vi.waitFor(() => expect(load.acked()).toBeGreaterThan(500), { timeout: 10_000 });
  const ackedBefore = load.acked();
  restore = mountReadOnly(dir);
  const during = await sampleHealth(FAULT_MS, done);
  restore();
  restore = undefined;
  await new Promise((r) => setTimeout(r, 500));
  await load.stop();
  await collector.writer.settle({ timeoutMs: 30_000 });
  return { load, ackedBefore, during, after: await health() };
}

describe('read-only disks under load', () => {
  it("ClickHouse's data directory read-only: spans wait in the log, /healthz degraded, none set aside, all stored once after", async () => {
    const { load, ackedBefore, during, after } = await underFault('ro-data', join(ts.dir, 'data'));
    // The log kept acknowledging while ClickHouse could not write.
    expect(load.acked()).toBeGreaterThan(ackedBefore);
    const degraded = during.filter((h) => h.status === 'degraded');
    expect(degraded.length).toBeGreaterThan(0);
    expect(degraded[0]!.problems.join(' ')).toMatch(/wait on disk because ClickHouse inserts fail/);
    expect(Math.max(...during.map((h) => h.ingest.pending))).toBeGreaterThan(0);
    expect(after).toMatchObject({
      status: 'ok',
      problems: [],
      ingest: { pending: 0, quarantine: { spans: 0 } },
    });
    expect(existsSync(join(ts.spoolDir, 'rejected'))).toBe(false);
    // Every load span is a CLIENT span: one call each in the rollup, once.
    const acked = load.acked();
    expect(await stored('ro-data')).toEqual({ spans: acked, ids: acked, calls: acked });
  }, 90_000);

  it('the write-ahead directory read-only: an open segment that cannot be sealed is reported, then sealed and stored once when it heals', async () => {
    const { load, during, after } = await underFault('ro-wal', ts.spoolDir, (seen) =>
      seen.some((h) => h.ingest.walError !== null && h.ingest.walError.spans > 0),
    );
    // Requests that needed a new segment were refused (not acknowledged) while it was read-only.
    expect(load.statuses[503] ?? 0).toBeGreaterThan(0);
    const unsealed = during.filter((h) => h.ingest.walError !== null);
    expect(unsealed.length).toBeGreaterThan(0);
    expect(unsealed.every((h) => h.status === 'degraded')).toBe(true);
    expect(unsealed[0]!.problems.join(' ')).toMatch(/cannot be sealed/);
    expect(Math.max(...unsealed.map((h) => h.ingest.walError!.spans))).toBeGreaterThan(0);
    expect(after).toMatchObject({
      status: 'ok',
      ingest: { walError: null, pending: 0, quarantine: { spans: 0 } },
    });
    const acked = load.acked();
    expect(await stored('ro-wal')).toEqual({ spans: acked, ids: acked, calls: acked });
  }, 90_000);
});
