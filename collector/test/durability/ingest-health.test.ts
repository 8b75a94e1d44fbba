import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Collector, readIngestHealth, startCollector } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from '../receiver/helpers/otlp-client.js';

// The counters the dashboard's ingest banner reads, against a real chDB store and real OTLP
// requests: accepted, stored, refused, pending (acknowledged, not stored) and insert errors.
let dir: string;
let store: Store;
let collector: Collector;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h9-health-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  collector = await startCollector({
    store,
    port: 0,
    writerOptions: { maxBatchDelayMs: 5, retryDelayMs: 50, maxRetryDelayMs: 100 },
  });
});

afterAll(async () => {
  await collector?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const spans = (n: number, traceId = newTraceId()) =>
  Array.from({ length: n }, (_, i) => ({
    traceId,
    spanId: (i + 1).toString(16).padStart(16, '0'),
    name: 'op',
    startTimeUnixNano: '1732886403000000000',
    endTimeUnixNano: '1732886403000000010',
  }));

async function stored(): Promise<number> {
  const r = await store.runReadOnly<{ n: number }>(
    "SELECT count() AS n FROM otel_traces WHERE ServiceName = 'health'",
  );
  return Number(r.rows[0]!.n);
}

describe('ingest health', () => {
  it('is readable in-process while a collector runs: five counters, the log under the data directory', async () => {
    expect((await postTraces(collector.url, jsonRequest('health', spans(30)))).status).toBe(200);
    await collector.writer.settle();
    expect(readIngestHealth()).toMatchObject({
      accepted: 30,
      stored: 30,
      pending: 0,
      oldestPendingAt: null,
      refused: { requests: 0, spans: 0, byStatus: {}, lastAt: null },
      insertErrors: { count: 0, lastMessage: null, lastAt: null },
      walDir: join(dir, 'data', 'wal'),
    });
    expect(await stored()).toBe(30);
  });

  it('counts refused requests by status and spans dropped inside an accepted request', async () => {
    const bad = await postTraces(collector.url, '{}', { 'content-type': 'text/plain' });
    expect(bad.status).toBe(415);
    const partial = [...spans(2), { ...spans(1)[0]!, traceId: '00000000000000000000000000000000' }];
    expect((await postTraces(collector.url, jsonRequest('health', partial))).status).toBe(200);
    await collector.writer.settle();
    const h = readIngestHealth()!;
    expect(h).toMatchObject({
      accepted: 32,
      stored: 32,
      refused: { requests: 1, spans: 1, invalidSpans: 1, byStatus: { '415': 1 } },
    });
    expect(h.refused.lastAt).toBeGreaterThanOrEqual(h.startedAt);
  });

  it('while inserts fail: pending since the first unstored ack, the last insert error and when; then stored', async () => {
    await store.client.command({ query: 'RENAME TABLE otel_traces TO otel_traces_away' });
    const sentAt = Date.now();
    try {
      expect((await postTraces(collector.url, jsonRequest('health', spans(10)))).status).toBe(200);
      await vi.waitFor(() => expect(readIngestHealth()!.insertErrors.count).toBeGreaterThan(0), {
        timeout: 10_000,
      });
      const h = readIngestHealth()!;
      expect(h).toMatchObject({ accepted: 42, stored: 32, pending: 10 });
      expect(h.oldestPendingAt).toBeGreaterThanOrEqual(sentAt - 5);
      expect(h.insertErrors.lastMessage).toMatch(/otel_traces does not exist/);
      expect(h.insertErrors.lastAt).toBeGreaterThanOrEqual(h.oldestPendingAt!);
      const health = await (await fetch(`${collector.url}/healthz`)).json();
      expect(health.ingest).toMatchObject({ pending: 10, stored: 32 });
      const metrics = await (await fetch(`${collector.url}/metrics`)).text();
      expect(Number(/^faultline_insert_last_error_timestamp_seconds (\S+)$/m.exec(metrics)?.[1])).toBeCloseTo(
        h.insertErrors.lastAt! / 1000,
      );
      expect(
        Number(/^faultline_writer_oldest_pending_age_seconds (\S+)$/m.exec(metrics)?.[1]),
      ).toBeGreaterThan(0);
    } finally {
      await store.client.command({ query: 'RENAME TABLE otel_traces_away TO otel_traces' });
    }
    await collector.writer.settle();
    expect(readIngestHealth()).toMatchObject({ accepted: 42, stored: 42, pending: 0, oldestPendingAt: null });
    expect(await stored()).toBe(42);
  });

  it('with an ingest token, /healthz withholds the error text and the log path from requests without it', async () => {
    const token = 't'.repeat(24);
    const guarded = await startCollector({
      store,
      port: 0,
      token,
      writerOptions: { spoolDir: join(dir, 'guarded-wal') },
    });
    try {
      const open = await (await fetch(`${guarded.url}/healthz`)).json();
      expect(open.ingest.walDir).toBe('withheld: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>');
      const authorized = await (
        await fetch(`${guarded.url}/healthz`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(authorized.ingest.walDir).toBe(join(dir, 'guarded-wal'));
      // In-process readers (the dashboard) always get the full object.
      expect(readIngestHealth()!.walDir).toBe(join(dir, 'guarded-wal'));
    } finally {
      await guarded.close();
    }
    expect(readIngestHealth()!.walDir).toBe(join(dir, 'data', 'wal'));
  });

  it('is null once the collector is closed', async () => {
    await collector.close();
    expect(readIngestHealth()).toBeNull();
  });
});
