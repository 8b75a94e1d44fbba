import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs/minimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGS_EXPORT_PATH } from '../../src/grpc/logs-service.js';
import { type Collector, startCollector } from '../../src/index.js';
import { exportPartialSuccess, exportRaw } from '../grpc/helpers/grpc-client.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { otlpLogsJsonToProtobuf } from './helpers/otlp-logs-to-protobuf.js';

// The trace receiver's bounds for logs: thousands of malformed bodies (each a 4xx, the process
// serving on, nothing stored), records refused one by one with the reason, the limits, the
// transports' other answers. Nothing accepted is lost: logs-restart.test.ts.
const PROTO = { 'content-type': 'application/x-protobuf' };
const JSON_CT = { 'content-type': 'application/json' };
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('log-refusals');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    maxBodyBytes: 256 * 1024,
    maxDecompressedBytes: 1024 * 1024,
    maxAnyValueDepth: 16,
    maxSpansPerRequest: 1000,
    maxAttributeValueLength: 4096,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const post = (body: Buffer | string, headers: Record<string, string>) =>
  postTraces(collector.url, body, headers, { path: '/v1/logs' });

async function count(table: 'otel_logs' | 'failures', service?: string): Promise<number> {
  const { rows } = await ts.store.runReadOnly<{ n: number }>(
    `SELECT count() AS n FROM ${table}${service ? ' WHERE ServiceName = {s:String}' : ''}`,
    service ? { s: service } : {},
  );
  return Number(rows[0]!.n);
}

/** Deterministic PRNG (mulberry32), as the trace fuzz test, so a failing body can be reproduced. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(0x10a5);
const int = (n: number) => Math.floor(rand() * n);

const now = () => `${BigInt(Date.now()) * 1_000_000n}`;

function record(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    timeUnixNano: now(),
    severityNumber: 17,
    severityText: 'ERROR',
    traceId: '0102030405060708090a0b0c0d0e0f10',
    spanId: '0102030405060708',
    body: { stringValue: 'payment failed' },
    attributes: [
      { key: 'exception.type', value: { stringValue: 'org.postgresql.util.PSQLException' } },
      { key: 'exception.message', value: { stringValue: 'ERROR: deadlock detected' } },
    ],
    ...overrides,
  };
}

function request(service: string, records: Record<string, unknown>[]): Record<string, unknown> {
  return {
    resourceLogs: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeLogs: [{ scope: { name: 'fuzz', version: '1' }, logRecords: records }],
      },
    ],
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the fuzz writes values of the wrong type by design
type LooseJson = any;

// Each mutation makes the request invalid by construction (a wrong JSON type at a known path).
const JSON_MUTATIONS: Array<(r: LooseJson) => void> = [
  (r) => (r.resourceLogs = 5),
  (r) => (r.resourceLogs = 'logs'),
  (r) => (r.resourceLogs[0] = [1]),
  (r) => (r.resourceLogs[0].scopeLogs = {}),
  (r) => (r.resourceLogs[0].resource = 'res'),
  (r) => (r.resourceLogs[0].resource.attributes = { key: 'x' }),
  (r) => (r.resourceLogs[0].schemaUrl = 3),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords = 'x'),
  (r) => (r.resourceLogs[0].scopeLogs[0].scope = []),
  (r) => (r.resourceLogs[0].scopeLogs[0].scope.attributes = 'a'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0] = 'record'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].traceId = 12345),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].traceId = 'zz02030405060708090a0b0c0d0e0f10'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].spanId = { hex: true }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber = 'SEVERITY_NUMBER_LOUD'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber = 2.5),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].severityText = 17),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano = '-1'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].observedTimeUnixNano = { n: 1 }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano = '99999999999999999999'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].flags = -1),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].flags = 'sampled'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].body = 'text'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].body = { boolValue: 'yes' }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].body = { arrayValue: { values: {} } }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].eventName = ['e']),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].attributes = 'attrs'),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].attributes[0].value = { intValue: '1.5' }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].attributes[0].value = { doubleValue: 'fast' }),
  (r) => (r.resourceLogs[0].scopeLogs[0].logRecords[0].attributes[0].value = { bytesValue: '***' }),
];

function nestedBody(depth: number): object {
  let v: object = { stringValue: 'leaf' };
  for (let i = 0; i < depth; i++)
    v =
      rand() < 0.5 ? { arrayValue: { values: [v] } } : { kvlistValue: { values: [{ key: 'k', value: v }] } };
  return v;
}

interface Case {
  kind: string;
  body: Buffer | string;
  headers: Record<string, string>;
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  for (let i = 0; i < 600; i++) {
    const bytes = Buffer.alloc(32 + int(2000));
    for (let j = 0; j < bytes.length; j++) bytes[j] = int(256);
    cases.push({ kind: 'random bytes', body: bytes, headers: PROTO });
  }
  // A valid message cut inside its first ResourceLogs (every cut leaves a field running past the end).
  const valid = otlpLogsJsonToProtobuf(
    request('fuzz-trunc', [
      record(),
      record({ body: { kvlistValue: { values: [{ key: 'a', value: { intValue: '1' } }] } } }),
    ]),
  );
  for (let i = 0; i < 600; i++) {
    cases.push({
      kind: 'truncated protobuf',
      body: valid.subarray(0, 1 + int(valid.length - 2)),
      headers: PROTO,
    });
  }
  for (let i = 0; i < 400; i++) {
    const r = request('fuzz', [record()]);
    JSON_MUTATIONS[i % JSON_MUTATIONS.length]!(r);
    cases.push({ kind: 'wrong JSON type', body: JSON.stringify(r), headers: JSON_CT });
  }
  for (let i = 0; i < 100; i++) {
    const text = JSON.stringify(request('fuzz', [record()]));
    cases.push({ kind: 'broken JSON', body: text.slice(0, int(text.length - 1)), headers: JSON_CT });
  }
  for (let i = 0; i < 25; i++) {
    const body = JSON.stringify(
      request('fuzz', [record({ body: { stringValue: 'x'.repeat(300_000 + int(100_000)) } })]),
    );
    cases.push({ kind: 'huge body', body, headers: JSON_CT });
    cases.push({
      kind: 'huge body gzip',
      body: gzipSync(body.repeat(4)),
      headers: { ...JSON_CT, 'content-encoding': 'gzip' },
    });
  }
  for (let i = 0; i < 100; i++) {
    const r = request('fuzz', [record({ body: nestedBody(17 + int(300)) })]);
    cases.push({ kind: 'deep body', body: JSON.stringify(r), headers: JSON_CT });
  }
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x7b));
  for (let i = 0; i < 20; i++)
    cases.push({ kind: 'gzip bomb', body: bomb, headers: { ...PROTO, 'content-encoding': 'gzip' } });
  const gz = gzipSync(JSON.stringify(request('fuzz', [record()])));
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
  const types = ['text/plain', 'application/xml', 'application/grpc', 'application/jsonx', ''];
  for (let i = 0; i < 100; i++) {
    const type = types[i % types.length]!;
    cases.push({
      kind: 'wrong content type',
      body: JSON.stringify(request('fuzz', [record()])),
      headers: type ? { 'content-type': type } : {},
    });
  }
  return cases;
}

describe('malformed and hostile bodies', () => {
  it('answers every one with a 4xx naming what is wrong, stays up, and stores nothing', {
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
          const res = await post(c.body, c.headers);
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
      'huge body': [413],
      'huge body gzip': [413],
      'deep body': [400],
      'gzip bomb': [413],
      'corrupt gzip': [400],
      'wrong content type': [415],
    });
    const health = await postTraces(collector.url, '', {}, { path: '/healthz', method: 'GET' });
    expect(health.status).toBe(200);
    await collector.settle();
    expect(await count('otel_logs')).toBe(0);
    expect(await count('failures')).toBe(0);

    // A well-formed request after the storm lands normally, its failure counted.
    const ok = await post(JSON.stringify(request('after-storm', [record()])), JSON_CT);
    expect(ok.status).toBe(200);
    await collector.settle();
    expect(await count('otel_logs', 'after-storm')).toBe(1);
  });

  it('names the path of a wrong type, and the gzip and size faults, as traces do', async () => {
    const r = request('fuzz', [record()]) as LooseJson;
    r.resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber = 'LOUD';
    const res = await post(JSON.stringify(r), JSON_CT);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toEqual({
      code: 3,
      message:
        'resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber: expected a SeverityNumber number or name',
    });
    const root = await post('[]', JSON_CT);
    expect(JSON.parse(root.body.toString()).message).toBe('$: expected an ExportLogsServiceRequest object');
    // resource_logs (1) declared 5 bytes long, 1 sent.
    const proto = await post(Buffer.from([0x0a, 0x05, 0x01]), PROTO);
    expect(proto.status).toBe(400);
    expect(proto.body.toString()).toContain('invalid protobuf: message truncated');
    // A record's field with the wrong wire type: flags (8) as a varint instead of fixed32.
    const flags = protobuf.Writer.create()
      .uint32((8 << 3) | 0)
      .uint32(1)
      .finish();
    const scope = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(flags)
      .finish();
    const rl = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(scope)
      .finish();
    const wrongWire = await post(
      Buffer.from(
        protobuf.Writer.create()
          .uint32((1 << 3) | 2)
          .bytes(rl)
          .finish(),
      ),
      PROTO,
    );
    expect(wrongWire.status).toBe(400);
    expect(wrongWire.body.toString()).toContain('field LogRecord.flags has wire type 0, expected 5');
  });

  it('413 for more records than maxSpansPerRequest in one request', async () => {
    const tiny = { timeUnixNano: now(), body: { stringValue: 'x' } };
    const res = await post(
      JSON.stringify(
        request(
          'too-many',
          Array.from({ length: 1001 }, () => tiny),
        ),
      ),
      JSON_CT,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString()).message).toMatch(/more than 1000 log records/);
    expect(await count('otel_logs', 'too-many')).toBe(0);
  });
});

describe('records refused one by one', () => {
  const bad = () => [
    record({ traceId: '01020304' }),
    record({ traceId: '', spanId: '0102030405060708' }),
    record({ timeUnixNano: '946684799000000000', observedTimeUnixNano: '0' }),
    record({ spanId: '', traceId: '', body: { stringValue: 'x'.repeat(5000) } }),
  ];

  it('over HTTP: the rest stored, partial_success with the count, the first reason and the truncation', async () => {
    const res = await post(JSON.stringify(request('partial-http', bad())), JSON_CT);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({
      partialSuccess: {
        rejectedLogRecords: '3',
        errorMessage:
          '3 log record(s) rejected: trace_id must be empty or 16 bytes (32 hex characters); ' +
          '1 attribute value(s) or bodies truncated to 4096 characters',
      },
    });
    await collector.settle();
    const { rows } = await ts.store.runReadOnly<{ n: number; body: number }>(
      "SELECT count() AS n, max(length(Body)) AS body FROM otel_logs WHERE ServiceName = 'partial-http'",
    );
    expect(rows[0]).toEqual({ n: 1, body: 4096 });
  });

  it('over gRPC: the same, as ExportLogsServiceResponse.partial_success', async () => {
    const answer = await exportRaw(
      `127.0.0.1:${collector.grpcPort}`,
      otlpLogsJsonToProtobuf(request('partial-grpc', bad())),
      { path: LOGS_EXPORT_PATH },
    );
    expect(answer.code).toBe(0);
    expect(exportPartialSuccess(answer.response!)).toEqual({
      rejected: 3,
      errorMessage:
        '3 log record(s) rejected: trace_id must be empty or 16 bytes (32 hex characters); ' +
        '1 attribute value(s) or bodies truncated to 4096 characters',
    });
    const garbage = await exportRaw(`127.0.0.1:${collector.grpcPort}`, Buffer.from([0x0a, 0xff, 0x01]), {
      path: LOGS_EXPORT_PATH,
    });
    expect(garbage).toMatchObject({ code: 3 });
    expect(garbage.details).toMatch(/^invalid protobuf/);
  });
});

describe('HTTP answers beside the export', () => {
  it('405 for GET, 415 for other content types, and the counters on /metrics and /healthz', async () => {
    const get = await postTraces(collector.url, '', {}, { path: '/v1/logs', method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const text = await post('x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    await collector.settle();
    const scrape = await (await fetch(`${collector.url}/metrics`)).text();
    const value = (series: string) => {
      const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('faultline_log_records_rejected_total{reason="invalid"}')).toBe(6);
    expect(value('faultline_log_records_inserted_total')).toBe(3);
    expect(value('faultline_log_records_failures_total')).toBe(3);
    expect(value('faultline_log_records_pending_insert')).toBe(0);
    expect(value('faultline_otlp_logs_responses_total{code="415"}')).toBeGreaterThanOrEqual(101);
    const health = await (await fetch(`${collector.url}/healthz`)).json();
    expect(health.logs).toMatchObject({
      status: 'ok',
      accepted: 3,
      inserted: 3,
      pendingInsert: 0,
      rejected: { invalid: 6, saturated: 0 },
      failures: 3,
    });
  });
});
