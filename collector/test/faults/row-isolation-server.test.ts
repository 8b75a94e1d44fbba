import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closedPort, type ShimProcess, startShim } from '../../../sql/test/support/shim-process.js';
import { dateTime64, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import type { SpanWriter } from '../../src/types.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { Spool } from '../../src/writer/spool.js';

// Against a ClickHouse server (the HTTP shim over chDB in its own process), ClickHouse's refusals
// reach the writer as @clickhouse/client's ClickHouseError parsed from the server's exception
// text, not as chDB's error objects: the same rows must split and be set aside the same way.
let dir: string;
let store: Store;
let shim: ShimProcess;
let writer: SpanWriter;
const SERVICE = 'server-isolation';
const DAY = 86_400_000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-server-isolation-'));
  const port = await closedPort();
  shim = await startShim(port, join(dir, 'clickhouse'));
  store = await openStore({ url: `http://127.0.0.1:${port}` });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterAll(async () => {
  vi.restoreAllMocks();
  await writer?.close();
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (n: number, at: (i: number) => number): TraceRow[] =>
  Array.from({ length: n }, (_, i) => makeRow({ ServiceName: SERVICE, Timestamp: dateTime64(at(i)) }));

async function stored(): Promise<{ n: number; days: number }> {
  const rs = await store.client.query({
    query:
      'SELECT count() AS n, uniqExact(toDate(Timestamp)) AS days FROM otel_traces WHERE ServiceName = {s:String}',
    query_params: { s: SERVICE },
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ n: number; days: number }>();
  return { n: Number(row!.n), days: Number(row!.days) };
}

describe('row isolation against a ClickHouse server', () => {
  it('a segment over 100 days and one with an unparseable row: split, the bad row kept with its reason, the rest stored', async () => {
    const spoolDir = join(dir, 'wal');
    const spool = new Spool(spoolDir);
    const t0 = Date.UTC(2026, 0, 1);
    await spool.append(serializeRows(rows(120, (i) => t0 + i * DAY)), 120, 'fl-server-spread');
    const good = serializeRows(rows(3, (i) => t0 + i)).split('\n');
    const bad = `{"Timestamp":"yesterday","ServiceName":"${SERVICE}"}`;
    await spool.append([good[0], bad, good[1], good[2], ''].join('\n'), 4, 'fl-server-bad');
    writer = createSpanWriter(store, { spoolDir, retryDelayMs: 20, maxRetryDelayMs: 50 });
    await writer.settle({ timeoutMs: 30_000 });
    expect(await stored()).toEqual({ n: 123, days: 120 });
    const s = writer.stats();
    expect([s.inserted, s.quarantined, s.splitBatches]).toEqual([123, 1, 2]);
    const [file] = readdirSync(join(spoolDir, 'rejected'));
    const kept = JSON.parse(readFileSync(join(spoolDir, 'rejected', file!), 'utf8'));
    expect(kept).toEqual({
      reason: expect.stringMatching(/^Code: 41 \(CANNOT_PARSE_DATETIME\)\. Cannot read DateTime/),
      row: JSON.parse(bad),
    });
  }, 60_000);
});
