import { gzipSync } from 'node:zlib';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import protobuf from 'protobufjs/minimal.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { makeSpans } from '../receiver/helpers/make-spans.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { countRows, openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

// Thousands of malformed bodies against a real collector and store: each must get a 4xx, the
// process must keep serving, and nothing may reach otel_traces or failures.

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('fuzz');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    maxBodyBytes: 256 * 1024,
    maxDecompressedBytes: 1024 * 1024,
    maxAnyValueDepth: 16,
    maxSpansPerRequest: 1000,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

/** Deterministic PRNG (mulberry32) so a failing body can be reproduced. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(0xfa017);
const int = (n: number) => Math.floor(rand() * n);

interface Case {
  kind: string;
  body: Buffer | string;
  headers: Record<string, string>;
}
const PROTO = { 'content-type': 'application/x-protobuf' };
const JSON_CT = { 'content-type': 'application/json' };

function validJsonRequest(): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'fuzz' } }] },
        scopeSpans: [
          {
            scope: { name: 'fuzz' },
            spans: [
              {
                traceId: '0102030405060708090a0b0c0d0e0f10',
                spanId: '0102030405060708',
                name: 'op',
                kind: 3,
                startTimeUnixNano: '1732886400000000000',
                endTimeUnixNano: '1732886400000001000',
                attributes: [{ key: 'faultline.class', value: { stringValue: 'transient' } }],
                events: [{ timeUnixNano: '1732886400000000500', name: 'e' }],
                status: { code: 2 },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** A request as mutable JSON: the mutations below write wrong types on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: the fuzz writes values of the wrong type by design
type LooseJson = any;

// Each mutation makes the request invalid by construction (a wrong JSON type at a known path).
const JSON_MUTATIONS: Array<(r: LooseJson) => void> = [
  (r) => (r.resourceSpans = 5),
  (r) => (r.resourceSpans = 'spans'),
  (r) => (r.resourceSpans[0] = [1, 2]),
  (r) => (r.resourceSpans[0].scopeSpans = {}),
  (r) => (r.resourceSpans[0].resource = 'res'),
  (r) => (r.resourceSpans[0].resource.attributes = { key: 'x' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans = 'x'),
  (r) => (r.resourceSpans[0].scopeSpans[0].scope = []),
  (r) => (r.resourceSpans[0].scopeSpans[0].scope.name = 7),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0] = 'span'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].traceId = 12345),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].traceId = 'zz02030405060708090a0b0c0d0e0f10'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].spanId = { hex: true }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].name = ['op']),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].kind = 'SPAN_KIND_SIDEWAYS'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].kind = 2.5),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano = '-1'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano = '12abc'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano = { n: 1 }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].endTimeUnixNano = '99999999999999999999'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes = 'attrs'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0] = 42),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key = false),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = 'v'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { boolValue: 'true' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { intValue: '1.5' }),
  (r) =>
    (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { intValue: '9223372036854775808' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { doubleValue: 'fast' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { stringValue: 12 }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { bytesValue: '***' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { arrayValue: { values: {} } }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = { kvlistValue: { values: [7] } }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].events = { name: 'e' }),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].events[0].timeUnixNano = true),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].links = [{ traceId: 1 }]),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].status = 'ERROR'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].status.code = 'STATUS_CODE_MAYBE'),
  (r) => (r.resourceSpans[0].scopeSpans[0].spans[0].status.message = 404),
];

function nestedJsonValue(depth: number): object {
  let v: object = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++)
    v =
      rand() < 0.5 ? { arrayValue: { values: [v] } } : { kvlistValue: { values: [{ key: 'k', value: v }] } };
  return v;
}

function nestedProtobuf(depth: number): Buffer {
  // AnyValue{ array_value{ values[ AnyValue{ … string_value } ] } } built inside out.
  let value = Buffer.from(protobuf.Writer.create().uint32(10).string('leaf').finish());
  for (let i = 0; i < depth; i++) {
    const arr = protobuf.Writer.create().uint32(10).bytes(value).finish();
    value = Buffer.from(protobuf.Writer.create().uint32(42).bytes(arr).finish());
  }
  const kv = protobuf.Writer.create().uint32(10).string('deep').uint32(18).bytes(value).finish();
  const span = protobuf.Writer.create()
    .uint32(10)
    .bytes(Buffer.alloc(16, 1))
    .uint32(18)
    .bytes(Buffer.alloc(8, 2))
    .uint32(74)
    .bytes(kv)
    .finish();
  const scopeSpans = protobuf.Writer.create().uint32(18).bytes(span).finish();
  const resourceSpans = protobuf.Writer.create().uint32(18).bytes(scopeSpans).finish();
  return Buffer.from(protobuf.Writer.create().uint32(10).bytes(resourceSpans).finish());
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  // 1. Random bytes (≥ 32 bytes: long enough that they are not accidentally a valid message).
  for (let i = 0; i < 600; i++) {
    const bytes = Buffer.alloc(32 + int(2000));
    for (let j = 0; j < bytes.length; j++) bytes[j] = int(256);
    cases.push({ kind: 'random bytes', body: bytes, headers: PROTO });
  }
  // 2. Truncated protobuf: one ResourceSpans cut anywhere inside it.
  const valid = Buffer.from(
    ProtobufTraceSerializer.serializeRequest(
      makeSpans('fuzz-trunc', [
        { name: 'a', attributes: { k: 'v', n: 1, arr: ['x'] }, event: { name: 'e' } },
        { name: 'b', error: 'x' },
      ]),
    )!,
  );
  for (let i = 0; i < 600; i++) {
    cases.push({
      kind: 'truncated protobuf',
      body: valid.subarray(0, 1 + int(valid.length - 1)),
      headers: PROTO,
    });
  }
  // 3. Wrong JSON types, and JSON that is not JSON.
  for (let i = 0; i < 400; i++) {
    const r = validJsonRequest();
    JSON_MUTATIONS[i % JSON_MUTATIONS.length]!(r);
    cases.push({ kind: 'wrong JSON type', body: JSON.stringify(r), headers: JSON_CT });
  }
  for (let i = 0; i < 100; i++) {
    const text = JSON.stringify(validJsonRequest());
    cases.push({ kind: 'broken JSON', body: text.slice(0, int(text.length - 1)), headers: JSON_CT });
  }
  // 4. Huge strings: over the body limit as sent, and over it after gunzip.
  for (let i = 0; i < 25; i++) {
    const r = validJsonRequest() as LooseJson;
    r.resourceSpans[0].scopeSpans[0].spans[0].name = 'x'.repeat(300_000 + int(100_000));
    cases.push({ kind: 'huge string', body: JSON.stringify(r), headers: JSON_CT });
    cases.push({
      kind: 'huge string gzip',
      body: gzipSync(JSON.stringify(r).repeat(4)),
      headers: { ...JSON_CT, 'content-encoding': 'gzip' },
    });
  }
  // 5. Deep nesting: AnyValue past the depth limit (JSON and protobuf), and a pathological JSON body.
  for (let i = 0; i < 100; i++) {
    const r = validJsonRequest() as LooseJson;
    r.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value = nestedJsonValue(17 + int(300));
    cases.push({ kind: 'deep AnyValue JSON', body: JSON.stringify(r), headers: JSON_CT });
    cases.push({ kind: 'deep AnyValue protobuf', body: nestedProtobuf(17 + int(300)), headers: PROTO });
  }
  cases.push({ kind: 'deep JSON array', body: '['.repeat(100_000) + ']'.repeat(100_000), headers: JSON_CT });
  // 6. Gzip bombs and broken gzip.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x7b));
  for (let i = 0; i < 20; i++)
    cases.push({ kind: 'gzip bomb', body: bomb, headers: { ...PROTO, 'content-encoding': 'gzip' } });
  const gz = gzipSync(JSON.stringify(validJsonRequest()));
  for (let i = 0; i < 80; i++) {
    const broken = Buffer.from(gz);
    const at = 10 + int(broken.length - 18);
    broken[at] = broken[at]! ^ 0xff;
    cases.push({
      kind: 'corrupt gzip',
      body: i % 2 ? broken : gz.subarray(0, 10 + int(gz.length - 20)),
      headers: { ...JSON_CT, 'content-encoding': 'gzip' },
    });
  }
  // 7. Wrong content types (and encodings) for an otherwise valid body.
  const types = [
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/grpc',
    'application/jsonx',
    '',
  ];
  for (let i = 0; i < 120; i++) {
    const type = types[i % types.length]!;
    cases.push({
      kind: 'wrong content type',
      body: JSON.stringify(validJsonRequest()),
      headers: type ? { 'content-type': type } : {},
    });
  }
  for (let i = 0; i < 20; i++) {
    cases.push({
      kind: 'wrong encoding',
      body: JSON.stringify(validJsonRequest()),
      headers: { ...JSON_CT, 'content-encoding': i % 2 ? 'br' : 'deflate' },
    });
  }
  return cases;
}

it('answers every malformed body with a 4xx, stays up, and stores nothing', {
  timeout: 180_000,
}, async () => {
  const cases = buildCases();
  expect(cases.length).toBeGreaterThan(2000);
  const wrong: string[] = [];
  const byKind = new Map<string, Set<number>>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < cases.length) {
        const index = next++;
        const c = cases[index]!;
        const res = await postTraces(collector.url, c.body, c.headers);
        if (!byKind.has(c.kind)) byKind.set(c.kind, new Set());
        byKind.get(c.kind)!.add(res.status);
        if (res.status < 400 || res.status >= 500)
          wrong.push(`#${index} ${c.kind}: ${res.status} ${res.body.toString().slice(0, 120)}`);
      }
    }),
  );
  expect(wrong).toEqual([]);
  expect(Object.fromEntries([...byKind].map(([k, s]) => [k, [...s].sort()]))).toEqual({
    'random bytes': [400],
    'truncated protobuf': [400],
    'wrong JSON type': [400],
    'broken JSON': [400],
    'huge string': [413],
    'huge string gzip': [413],
    'deep AnyValue JSON': [400],
    'deep AnyValue protobuf': [400],
    'deep JSON array': [400],
    'gzip bomb': [413],
    'corrupt gzip': [400],
    'wrong content type': [415],
    'wrong encoding': [415],
  });

  // Still serving, and nothing of the above was stored.
  const health = await postTraces(collector.url, '', {}, { path: '/healthz', method: 'GET' });
  expect(health.status).toBe(200);
  // Acknowledged spans insert in the background: settle first, or junk rows could still be on the way.
  await collector.writer.settle();
  expect(await countRows(ts.store, 'otel_traces')).toBe(0);
  expect(await countRows(ts.store, 'failures')).toBe(0);

  // A well-formed request after the storm lands normally.
  const ok = await postTraces(collector.url, JSON.stringify(validJsonRequest()), JSON_CT);
  expect(ok.status).toBe(200);
  await collector.writer.settle();
  expect(await countRows(ts.store, 'otel_traces')).toBe(1);
  expect(await countRows(ts.store, 'failures')).toBe(1);
});
