import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateTime64, makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { insertIsolatingRows } from '../../src/writer/row-isolation.js';

// A segment replayed after a crash between its INSERT and its deletion arrives again under its
// own deduplication token: every table filled from otel_traces must then hold it once.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const CID = 'req-replay';
const base = { 'faultline.correlation_id': CID, 'faultline.entry': 'true' };
const ROWS: TraceRow[] = [
  makeRow({ Timestamp: dateTime64(T0), SpanKind: 'Server', SpanAttributes: { ...base } }),
  // A failed call, its retry (retry_attempts), and an SDK operation retried inside the library.
  makeFailureRow(
    { class: 'transient', source: 'http', code: '503', retryable: 'true', correlation_id: CID },
    { Timestamp: dateTime64(T0 + 10) },
  ),
  makeRow({
    Timestamp: dateTime64(T0 + 20),
    SpanKind: 'Client',
    SpanName: 'POST',
    SpanAttributes: {
      ...base,
      'faultline.source': 'http',
      'faultline.attempt': '2',
      'faultline.previous_class': 'transient',
    },
  }),
  makeRow({
    Timestamp: dateTime64(T0 + 30),
    SpanKind: 'Client',
    SpanName: 'DynamoDB.PutItem',
    SpanAttributes: {
      ...base,
      'faultline.source': 'sdk',
      'faultline.attempts': '3',
      'faultline.previous_class': 'rate_limit',
      'faultline.previous_code': 'ThrottlingException',
    },
  }),
];
// What each table holds for these rows, counted by hand: 4 spans; failures: the 503 + 2 throttled
// attempts; calls_1m and dependency_calls_1m: 1 server + 1 + 1 + 3 calls; failure_codes_1m: 3
// failures; retry_attempts: the 503, its retry, PutItem's attempts 2 and 3; one workflow.
const COUNTS = `SELECT
  (SELECT count() FROM otel_traces) AS spans,
  (SELECT count() FROM otel_traces_trace_id_ts) AS trace_ids,
  (SELECT count() FROM failures) AS failures,
  (SELECT sum(calls) FROM calls_1m) AS calls,
  (SELECT sum(calls) FROM dependency_calls_1m) AS dependency_calls,
  (SELECT sum(failures) FROM failure_codes_1m) AS failure_codes,
  (SELECT count() FROM retry_attempts) AS retry_attempts,
  (SELECT sum(step_count) FROM workflows_rollup) AS workflow_steps`;

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-replay-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function counts(): Promise<Record<string, number>> {
  const rs = await store.client.query({ query: COUNTS, format: 'JSONEachRow' });
  const [row] = await rs.json<Record<string, string | number>>();
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
}

describe('a replayed segment', () => {
  it('is counted once in every table filled from otel_traces', async () => {
    const body = serializeRows(ROWS);
    await insertBatch(store.client, body, { token: 'fl-replay-1' });
    const once = await counts();
    expect(once).toEqual({
      spans: 4,
      trace_ids: 4,
      failures: 3,
      calls: 6,
      dependency_calls: 6,
      failure_codes: 3,
      retry_attempts: 4,
      workflow_steps: 2,
    });
    await insertBatch(store.client, body, { token: 'fl-replay-1' });
    expect(await counts()).toEqual(once);
  });

  it('split around a row ClickHouse refuses is counted once in every table, replayed after a crash mid-split too', async () => {
    // The same four spans (fresh ids, a second request id) with one unparseable row between them.
    const lines = serializeRows(
      ROWS.map((r, i) => ({
        ...r,
        SpanId: `e${String(i).padStart(15, '0')}`,
        SpanAttributes: { ...r.SpanAttributes, 'faultline.correlation_id': 'req-split' },
      })),
    ).split('\n');
    const bad = '{"Timestamp":"not a time","ServiceName":"poison"}';
    const body = Buffer.from([lines[0], lines[1], bad, lines[2], lines[3], ''].join('\n'));
    const before = await counts();
    const insert = (b: Buffer, token: string) => insertBatch(store.client, b, { token });
    // A crash after the first half landed: only that half is in.
    let calls = 0;
    const crashing = async (b: Buffer, token: string) => {
      if (++calls === 3) throw new Error('process killed');
      await insert(b, token);
    };
    await expect(insertIsolatingRows(crashing, body, 'fl-split-1')).rejects.toThrow('process killed');
    const first = await insertIsolatingRows(insert, body, 'fl-split-1');
    const again = await insertIsolatingRows(insert, body, 'fl-split-1');
    for (const r of [first, again]) {
      expect(r.split).toBe(true);
      expect(r.rejected.map((x) => [x.line.toString(), x.reason.includes('CANNOT_PARSE_DATETIME')])).toEqual([
        [bad, true],
      ]);
    }
    const after = await counts();
    // What the same four spans added in the first case, once, despite the crash and the replay.
    expect(Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]))).toEqual(
      before,
    );
  });
});
