import { request as httpRequest } from 'node:http';
import type { Client } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { createSpanWriter } from '../../src/writer/index.js';
import { otlpJsonToProtobuf } from '../golden/otlp-json-to-protobuf.js';
import { newTraceId } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore, traceRows } from '../receiver/helpers/test-store.js';
import { exportRaw, grpcClient, partialSuccess, retryDelaySeconds } from './helpers/grpc-client.js';
import { heldWriter } from './helpers/held-writer.js';

// The OTLP/gRPC error contract, with raw request bytes from a plain grpc-js client.
let ts: TestStore;
let collector: Collector;
let address: string;

beforeAll(async () => {
  ts = await openTestStore('grpc-errors');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    maxBodyBytes: 256 * 1024,
    maxDecompressedBytes: 1024 * 1024,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
  address = `127.0.0.1:${collector.grpcPort}`;
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const NOW = BigInt(Date.now()) * 1_000_000n;

function span(traceId: string, spanId: string, name: string) {
  return {
    traceId,
    spanId,
    name,
    kind: 3,
    startTimeUnixNano: String(NOW),
    endTimeUnixNano: String(NOW + 5_000_000n),
    attributes: [{ key: 'http.request.method', value: { stringValue: 'GET' } }],
  };
}

function request(spans: object[]): Buffer {
  return otlpJsonToProtobuf({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'grpc-errors' } }] },
        scopeSpans: [{ scope: { name: 'grpc-test' }, spans }],
      },
    ],
  });
}

describe('answers', () => {
  it('stores a gzip-compressed export and answers OK with an empty response', async () => {
    const traceId = newTraceId();
    const answer = await exportRaw(address, request([span(traceId, '00000000000000a1', 'GET /gz')]), {
      gzip: true,
    });
    expect(answer.code).toBe(0);
    expect(answer.response?.length).toBe(0);
    await collector.writer.settle();
    expect(await traceRows(ts.store, traceId)).toHaveLength(1);
  });

  it('answers partial_success for a span with an invalid id and stores the rest', async () => {
    const traceId = newTraceId();
    const answer = await exportRaw(
      address,
      request([span(traceId, '00000000000000b1', 'GET /ok'), span(traceId, '0000000000000000', 'GET /bad')]),
    );
    expect(answer.code).toBe(0);
    const partial = partialSuccess(answer.response!);
    expect(partial.rejectedSpans).toBe(1);
    expect(partial.errorMessage).toMatch(/span/i);
    await collector.writer.settle();
    const rows = await traceRows(ts.store, traceId);
    expect(rows.map((r) => r.SpanName)).toEqual(['GET /ok']);
  });

  it('answers INVALID_ARGUMENT for a malformed message', async () => {
    const valid = request([span(newTraceId(), '00000000000000c1', 'GET /cut')]);
    const answer = await exportRaw(address, valid.subarray(0, valid.length - 3));
    expect(answer.code).toBe(3);
    expect(answer.details).toMatch(/./);
  });

  it('refuses a message over the decompressed limit', async () => {
    const answer = await exportRaw(address, Buffer.alloc(2 * 1024 * 1024), { gzip: true });
    expect(answer.code).toBe(8);
    expect(retryDelaySeconds(answer.trailers)).toBeUndefined();
  });
});

describe('a small fuzz', () => {
  let client: Client;
  beforeAll(() => {
    client = grpcClient(address);
  });
  afterAll(() => client.close());

  it('answers random bytes and truncated messages with OK or INVALID_ARGUMENT, and keeps serving', async () => {
    let seed = 0x5eed;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const valid = request([
      span(newTraceId(), '00000000000000d1', 'GET /fuzz'),
      span(newTraceId(), '00000000000000d2', 'GET /fuzz2'),
    ]);
    const bodies: Buffer[] = [];
    for (let i = 0; i < 150; i++) {
      const n = Math.floor(random() * 600);
      bodies.push(Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256))));
    }
    for (let cut = 1; cut < valid.length; cut += 3) bodies.push(valid.subarray(0, cut));
    for (let i = 0; i < 100; i++) {
      const flipped = Buffer.from(valid);
      flipped[Math.floor(random() * flipped.length)] = Math.floor(random() * 256);
      bodies.push(flipped);
    }
    const codes = new Map<number, number>();
    for (let i = 0; i < bodies.length; i += 20) {
      const answers = await Promise.all(bodies.slice(i, i + 20).map((b) => exportRaw(client, b)));
      for (const a of answers) codes.set(a.code, (codes.get(a.code) ?? 0) + 1);
    }
    expect([...codes.keys()].every((c) => c === 0 || c === 3)).toBe(true);
    expect(codes.get(3)).toBeGreaterThan(100);
    const traceId = newTraceId();
    expect((await exportRaw(client, request([span(traceId, '00000000000000e1', 'GET /after')]))).code).toBe(
      0,
    );
  });
});

describe('overload and shutdown', () => {
  it('answers RESOURCE_EXHAUSTED with RetryInfo when the writer is saturated, then refuses unread', async () => {
    const small = createSpanWriter(ts.store, {
      ackAfter: 'insert',
      spoolDir: `${ts.spoolDir}-small`,
      maxQueueSpans: 2,
      maxBatchSpans: 2,
    });
    const tiny = await startCollector({ port: 0, writer: small });
    try {
      const traceId = newTraceId();
      const body = request(['f1', 'f2', 'f3'].map((s, i) => span(traceId, `00000000000000${s}`, `s${i}`)));
      const target = `127.0.0.1:${tiny.grpcPort}`;
      const first = await exportRaw(target, body);
      expect(first.code).toBe(8);
      expect(first.details).toMatch(/saturated/);
      expect(retryDelaySeconds(first.trailers)).toBe(1);
      expect(await traceRows(ts.store, traceId)).toHaveLength(0);
      const metrics = await (await fetch(`${tiny.url}/metrics`)).text();
      expect(metrics).toContain('faultline_spans_rejected_total{reason="saturated"} 3');
      expect(metrics).toContain('faultline_otlp_responses_total{code="429"} 1');
    } finally {
      await tiny.close();
      await small.close();
    }
  });

  it('shares the decode budget with /v1/traces: RESOURCE_EXHAUSTED with RetryInfo while HTTP holds it', async () => {
    const writer = heldWriter();
    const shared = await startCollector({ port: 0, writer, maxDecodeBytes: 1024 * 1024 });
    // An HTTP upload that sends 1.5 MiB of a declared 4 MiB and stalls holds the whole budget.
    const upload = httpRequest(`${shared.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(4 * 1024 * 1024) },
    });
    upload.on('error', () => {});
    upload.write(Buffer.alloc(1536 * 1024, 0x20));
    try {
      await new Promise((r) => setTimeout(r, 200));
      const body = request([span(newTraceId(), '0000000000000021', 'GET /budget')]);
      const answer = await exportRaw(`127.0.0.1:${shared.grpcPort}`, body);
      expect(answer.code).toBe(8);
      expect(answer.details).toMatch(/FAULTLINE_MAX_DECODE_BYTES/);
      expect(retryDelaySeconds(answer.trailers)).toBeGreaterThan(0);
      expect(writer.rows).toHaveLength(0);
    } finally {
      upload.destroy();
      writer.release();
      await shared.close();
    }
  });

  it('answers UNAVAILABLE with RetryInfo while shutting down', async () => {
    const writer = heldWriter();
    const stopping = await startCollector({ port: 0, writer });
    const target = `127.0.0.1:${stopping.grpcPort}`;
    const client = grpcClient(target);
    try {
      expect((await exportRaw(client, request([span(newTraceId(), '0000000000000011', 'a')]))).code).toBe(0);
      const closed = stopping.close();
      const answer = await exportRaw(client, request([span(newTraceId(), '0000000000000012', 'b')]));
      expect(answer.code).toBe(14);
      expect(answer.details).toMatch(/shutting down/);
      expect(retryDelaySeconds(answer.trailers)).toBe(5);
      expect(writer.rows).toHaveLength(1);
      writer.release();
      await closed;
    } finally {
      client.close();
      writer.release();
      await stopping.close();
    }
  });
});
