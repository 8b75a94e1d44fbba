import type { TraceRow } from '@faultline/sql';
import protobuf from 'protobufjs/minimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector, waitForInserted } from '../../src/index.js';
import { SpanIndex, spanIdHash } from '../../src/otlp/span-index.js';
import { otlpJsonToProtobuf } from '../golden/otlp-json-to-protobuf.js';
import { newTraceId, postTraces } from './helpers/otlp-client.js';
import { openTestStore, type TestStore, traceRows } from './helpers/test-store.js';

// A span (same traceId + spanId) sent twice in one export is stored once: the last occurrence,
// with the repeat reported through partial_success. Each case runs as JSON and as protobuf.
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('duplicates');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const NOW_NS = BigInt(Date.now()) * 1_000_000n;

function span(traceId: string, spanId: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    traceId,
    spanId,
    name,
    kind: 3,
    startTimeUnixNano: NOW_NS.toString(),
    endTimeUnixNano: (NOW_NS + 1_000n).toString(),
    ...extra,
  };
}

function exportOf(...resources: Array<{ service: string; spans: object[] }>) {
  return {
    resourceSpans: resources.map((r) => ({
      resource: { attributes: [{ key: 'service.name', value: { stringValue: r.service } }] },
      scopeSpans: [{ scope: { name: 'duplicates-test' }, spans: r.spans }],
    })),
  };
}

/** ExportTraceServiceResponse.partial_success from protobuf bytes (empty body: full success). */
function partialFromProtobuf(body: Buffer): { rejectedSpans: string; errorMessage: string } | undefined {
  if (body.length === 0) return undefined;
  const r = protobuf.Reader.create(body);
  const out = { rejectedSpans: '0', errorMessage: '' };
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag !== ((1 << 3) | 2)) {
      r.skipType(tag & 7);
      continue;
    }
    const end = r.uint32() + r.pos;
    while (r.pos < end) {
      const t = r.uint32();
      if (t >>> 3 === 1) out.rejectedSpans = r.int64().toString();
      else if (t >>> 3 === 2) out.errorMessage = r.string();
      else r.skipType(t & 7);
    }
  }
  return out;
}

async function send(encoding: 'json' | 'protobuf', request: object) {
  if (encoding === 'json') {
    const res = await postTraces(collector.url, JSON.stringify(request), {
      'content-type': 'application/json',
    });
    return { status: res.status, partial: JSON.parse(res.body.toString()).partialSuccess };
  }
  const res = await postTraces(collector.url, otlpJsonToProtobuf(request as Record<string, unknown>), {
    'content-type': 'application/x-protobuf',
  });
  return { status: res.status, partial: partialFromProtobuf(res.body) };
}

describe.each(['json', 'protobuf'] as const)('duplicate span ids in one export (%s)', (encoding) => {
  it('sent 3 spans, 1 a repeat of another → 2 rows, the last occurrence kept, 1 reported rejected', async () => {
    const trace = newTraceId();
    const request = exportOf({
      service: 'dup',
      spans: [
        span(trace, '00000000000000a1', 'first copy'),
        span(trace, '00000000000000a2', 'other'),
        span(trace, '00000000000000a1', 'second copy', {
          attributes: [{ key: 'copy', value: { intValue: '2' } }],
        }),
      ],
    });
    const { status, partial } = await send(encoding, request);
    expect(status).toBe(200);
    expect(partial.rejectedSpans).toBe('1');
    expect(partial.errorMessage).toBe(
      `1 duplicate span(s) dropped: the same trace_id and span_id appeared more than once in this export ` +
        `(first: trace_id ${trace} span_id 00000000000000a1); the last occurrence of each was kept`,
    );
    await waitForInserted(collector.url);
    const rows = await traceRows(ts.store, trace);
    expect(rows.map((r) => [r.SpanId, r.SpanName]).sort()).toEqual([
      ['00000000000000a1', 'second copy'],
      ['00000000000000a2', 'other'],
    ]);
    expect(rows.find((r) => r.SpanId === '00000000000000a1')!.SpanAttributes).toEqual({ copy: '2' });
  });

  it('repeats across resources count too, beside an invalid span: sent 5, 2 repeats + 1 invalid → 2 rows, 3 rejected', async () => {
    const trace = newTraceId();
    const request = exportOf(
      { service: 'a', spans: [span(trace, '00000000000000b1', 'b1'), span(trace, '00000000000000b2', 'b2')] },
      {
        service: 'b',
        spans: [
          span(trace, '00000000000000b1', 'b1 again'),
          span(trace, '00000000000000b1', 'b1 third'),
          span(trace, '0000000000000000', 'no span id'),
        ],
      },
    );
    const { status, partial } = await send(encoding, request);
    expect(status).toBe(200);
    expect(partial.rejectedSpans).toBe('3');
    expect(partial.errorMessage).toMatch(
      /^1 span\(s\) rejected: span_id is missing or all zeros; 2 duplicate span\(s\) dropped: /,
    );
    await waitForInserted(collector.url);
    const rows = await traceRows(ts.store, trace);
    expect(rows.map((r) => [r.SpanId, r.SpanName, r.ServiceName]).sort()).toEqual([
      ['00000000000000b1', 'b1 third', 'b'],
      ['00000000000000b2', 'b2', 'a'],
    ]);
  });

  it('the same span id in two traces is two spans: sent 2 → 2 rows, nothing rejected', async () => {
    const [t1, t2] = [newTraceId(), newTraceId()];
    const { status, partial } = await send(
      encoding,
      exportOf({
        service: 'two',
        spans: [span(t1, '00000000000000c1', 'x'), span(t2, '00000000000000c1', 'y')],
      }),
    );
    expect(status).toBe(200);
    expect(partial).toBeUndefined();
    await waitForInserted(collector.url);
    expect(await traceRows(ts.store, t1)).toHaveLength(1);
    expect(await traceRows(ts.store, t2)).toHaveLength(1);
  });
});

describe('SpanIndex', () => {
  const row = (traceId: string, spanId: string) => ({ TraceId: traceId, SpanId: spanId }) as TraceRow;

  it('finds a repeat by both ids, across growth', () => {
    const rows: TraceRow[] = [];
    const index = new SpanIndex(rows);
    const claim = (t: string, s: string) => {
      const at = index.claim(t, s, rows.length);
      if (at < 0) rows.push(row(t, s));
      return at;
    };
    for (let i = 0; i < 5_000; i++) expect(claim('a'.repeat(32), i.toString(16).padStart(16, '0'))).toBe(-1);
    expect(claim('a'.repeat(32), (4_321).toString(16).padStart(16, '0'))).toBe(4_321);
    expect(claim('b'.repeat(32), (4_321).toString(16).padStart(16, '0'))).toBe(-1); // another trace
    expect(index.degraded).toBe(false);
  });

  it('span ids made to collide move it into a Map, still exact (sent 40 colliding ids twice → 40 found)', () => {
    // With a known seed, 40 ids whose hashes share their low 8 bits: one probe run in a 256-slot table.
    const seed = 7;
    const colliding: string[] = [];
    for (let i = 0; colliding.length < 40; i++) {
      const id = i.toString(16).padStart(16, '0');
      if ((spanIdHash(id, seed) & 0xff) === 0) colliding.push(id);
    }
    const rows: TraceRow[] = [];
    const index = new SpanIndex(rows, seed);
    for (const id of colliding) {
      expect(index.claim('c'.repeat(32), id, rows.length)).toBe(-1);
      rows.push(row('c'.repeat(32), id));
    }
    expect(index.degraded).toBe(true);
    expect(colliding.map((id) => index.claim('c'.repeat(32), id, rows.length))).toEqual(
      colliding.map((_, i) => i),
    );
  });
});
