import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// request_span_panel reads one span's maps for the request page's side panel, bounded whatever a
// span holds. One span with more of everything than the bounds, and its neighbour in the same
// trace and second, inserted as the exporter's rows.
let store: Store;
let dataDir: string;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0) / 1000;
const TRACE = '7'.repeat(32);
const stamp = (ns: bigint) => {
  const d = new Date(Number(ns / 1_000_000n));
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
};
const START_NS = BigInt(T0) * 1_000_000_000n + 123_456_789n;
const key = (i: number) => `attr.${String(i).padStart(3, '0')}`;

const big = {
  Timestamp: stamp(START_NS),
  TraceId: TRACE,
  SpanId: 'b'.repeat(16),
  ParentSpanId: '',
  SpanName: 'big',
  SpanKind: 'Server',
  ServiceName: 'panel',
  ResourceAttributes: { 'service.name': 'panel', 'host.name': 'h1' },
  // 350 attributes (the page reads 300), one of them 10,000 characters long.
  SpanAttributes: {
    ...Object.fromEntries(Array.from({ length: 350 }, (_, i) => [key(i), `v${i}`])),
    [key(5)]: `${'y'.repeat(9_990)}0123456789`,
  },
  Duration: 5_000_000,
  StatusCode: 'Error',
  StatusMessage: 'boom',
  'Events.Timestamp': Array.from({ length: 120 }, (_, i) => stamp(START_NS + BigInt(i) * 1_000n)),
  'Events.Name': Array.from({ length: 120 }, (_, i) => (i === 0 ? 'exception' : `e${i}`)),
  'Events.Attributes': Array.from({ length: 120 }, (_, i) =>
    i === 0
      ? Object.fromEntries([
          ['exception.type', 'Error'],
          ...Array.from({ length: 60 }, (_, j) => [`k${String(j).padStart(2, '0')}`, 'x']),
        ])
      : {},
  ),
};
const neighbour = { ...big, SpanId: 'c'.repeat(16), SpanName: 'neighbour', SpanAttributes: { only: 'me' } };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'faultline-span-panel-'));
  const { openStore } = await import('@faultline/sql');
  store = await openStore({ dataDir });
  await store.client.insert({ table: 'otel_traces', values: [big, neighbour], format: 'JSONEachRow' });
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const panel = async (spanId: string, from = T0 - 1, to = T0 + 2) =>
  (await store.runNamed<Row>('dashboard/request_span_panel', { trace_id: TRACE, span_id: spanId, from, to }))
    .rows;

describe('request_span_panel', () => {
  it('reads one span: its exact start, and its attributes sorted, bounded, with their full lengths', async () => {
    const [row] = await panel('b'.repeat(16));
    expect(row!.start_ns).toBe(String(START_NS));
    const attrs = row!.attributes as [string, string, number][];
    expect([attrs.length, row!.attribute_count]).toEqual([300, 350]);
    expect(attrs[0]![0]).toBe(key(0));
    expect(attrs[299]![0]).toBe(key(299));
    // The long value: its first 8,000 characters (the page redacts them, then shows 2,000).
    expect([attrs[5]![1].length, attrs[5]![2]]).toEqual([8_000, 10_000]);
    expect(row!.resource).toEqual([
      ['host.name', 'h1', 2],
      ['service.name', 'panel', 5],
    ]);
    expect(row!.status_message).toBe('boom');
  });

  it('bounds events to 100 of 50 attributes each, each with its exact time', async () => {
    const [row] = await panel('b'.repeat(16));
    const events = row!.events as [string, string, [string, string, number][], number][];
    expect([events.length, row!.event_count]).toEqual([100, 120]);
    expect(events[0]![0]).toBe(String(START_NS));
    expect(events[1]![0]).toBe(String(START_NS + 1_000n));
    expect([events[0]![1], events[0]![2].length, events[0]![3]]).toEqual(['exception', 50, 61]);
    expect(events[0]![2][0]).toEqual(['exception.type', 'Error', 5]);
  });

  it('finds nothing outside the window given or for another span id', async () => {
    expect(await panel('b'.repeat(16), T0 + 1, T0 + 3)).toEqual([]);
    expect(await panel('d'.repeat(16))).toEqual([]);
    const [other] = await panel('c'.repeat(16));
    expect(other!.attributes).toEqual([['only', 'me', 2]]);
  });
});
