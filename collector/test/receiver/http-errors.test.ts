import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs/minimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { jsonRequest, newTraceId, postTraces } from './helpers/otlp-client.js';
import { countRows, openTestStore, type TestStore, traceRows } from './helpers/test-store.js';

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('http');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    maxBodyBytes: 64 * 1024,
    maxDecompressedBytes: 256 * 1024,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const PROTO = { 'content-type': 'application/x-protobuf' };
const JSON_CT = { 'content-type': 'application/json' };

/** google.rpc.Status from protobuf bytes: { code (1), message (2) }. */
function decodeStatus(body: Buffer): { code: number; message: string } {
  const r = protobuf.Reader.create(body);
  const out = { code: 0, message: '' };
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === 1) out.code = r.int32();
    else if (tag >>> 3 === 2) out.message = r.string();
    else r.skipType(tag & 7);
  }
  return out;
}

function span(traceId: string, spanId: string) {
  return {
    traceId,
    spanId,
    name: 'op',
    kind: 3,
    startTimeUnixNano: '1732886400000000000',
    endTimeUnixNano: '1732886400500000000',
  };
}

describe('OTLP errors answer google.rpc.Status in the request encoding', () => {
  it('415 for an unsupported content type', async () => {
    const res = await postTraces(collector.url, 'hello', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body.toString())).toEqual({
      code: 3,
      message: 'Content-Type "text/plain" is not supported; send application/x-protobuf or application/json',
    });
  });

  it('415 for an unsupported content encoding', async () => {
    const res = await postTraces(collector.url, '{}', { ...JSON_CT, 'content-encoding': 'br' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body.toString()).message).toMatch(/Content-Encoding "br" is not supported/);
  });

  it('400 with a protobuf Status for undecodable protobuf', async () => {
    const res = await postTraces(collector.url, Buffer.from([0x0a, 0xff, 0xff, 0x03, 0x01]), PROTO);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(decodeStatus(res.body)).toEqual({ code: 3, message: expect.stringMatching(/truncated/) });
  });

  it('400 with a JSON Status for bad JSON', async () => {
    const res = await postTraces(collector.url, '{"resourceSpans":[{"scopeSpans":7}]}', JSON_CT);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toEqual({
      code: 3,
      message: 'resourceSpans[0].scopeSpans: expected an array',
    });
  });

  it('400 for a body that claims gzip but is not', async () => {
    const res = await postTraces(collector.url, 'not gzip', { ...JSON_CT, 'content-encoding': 'gzip' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).message).toMatch(/not valid gzip/);
  });

  it('413 when Content-Length is over the limit', async () => {
    const res = await postTraces(collector.url, Buffer.alloc(65 * 1024, 0x20), JSON_CT);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString()).message).toMatch(
      /larger than 65536 bytes \(FAULTLINE_MAX_BODY_BYTES\)/,
    );
  });

  it('413 when a chunked body grows over the limit', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${collector.url}/v1/traces`, { method: 'POST', headers: JSON_CT }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write(Buffer.alloc(8 * 1024, 0x20));
      req.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).code).toBe(3);
  });

  it('413 for a gzip bomb, without inflating it', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)); // ~50 KB on the wire, 50 MB inflated
    expect(bomb.length).toBeLessThan(64 * 1024);
    const before = process.memoryUsage().rss;
    const res = await postTraces(collector.url, bomb, { ...JSON_CT, 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString()).message).toMatch(/decompresses to more than 262144 bytes/);
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });
});

describe('success responses', () => {
  it('answers an empty ExportTraceServiceResponse for a full success (protobuf)', async () => {
    const res = await postTraces(collector.url, Buffer.alloc(0), PROTO);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect(res.body.length).toBe(0);
  });

  it('reports rejected spans in partial_success (JSON) and stores the valid ones', async () => {
    const trace = newTraceId();
    const body = jsonRequest('h4b-partial', [
      span(trace, '1111111111111111'),
      span(trace, ''),
      span(trace, '2222222222222222'),
    ]);
    const res = await postTraces(collector.url, body, JSON_CT, { gzip: true });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({
      partialSuccess: {
        rejectedSpans: '1',
        errorMessage: '1 span(s) rejected: span_id is missing or all zeros',
      },
    });
    await collector.writer.settle();
    const rows = await traceRows(ts.store, trace);
    expect(rows.map((r) => r.SpanId)).toEqual(['1111111111111111', '2222222222222222']);
    expect(rows[0]).toMatchObject({ Duration: 500_000_000, ServiceName: 'h4b-partial', SpanKind: 'Client' });
  });
});

describe('other endpoints answer RFC 9457 problem+json', () => {
  it('404 for an unknown path', async () => {
    const res = await postTraces(collector.url, '', {}, { path: '/nope', method: 'GET' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(res.body.toString())).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail:
        'no route for GET /nope; OTLP traces go to POST /v1/traces, metrics to POST /v1/metrics, logs to POST /v1/logs',
    });
  });

  it('404 naming the signals it takes for another OTLP path', async () => {
    const res = await postTraces(collector.url, '{}', JSON_CT, { path: '/v1/profiles' });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString()).detail).toBe(
      'no route for POST /v1/profiles; OTLP traces go to POST /v1/traces, metrics to POST /v1/metrics, logs to POST /v1/logs',
    );
  });

  it('405 with Allow for GET /v1/traces', async () => {
    const res = await postTraces(collector.url, '', {}, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('/healthz reports writer state and /metrics counts what happened', async () => {
    await collector.writer.settle();
    const health = await postTraces(collector.url, '', {}, { path: '/healthz', method: 'GET' });
    expect(health.status).toBe(200);
    const state = JSON.parse(health.body.toString());
    expect(state.status).toBe('ok');
    expect(state.writer.accepted).toBeGreaterThanOrEqual(2);
    expect(state.writer).toMatchObject({
      ackAfter: 'wal',
      pendingInsert: 0,
      inserted: state.writer.accepted,
    });

    const metrics = (
      await postTraces(collector.url, '', {}, { path: '/metrics', method: 'GET' })
    ).body.toString();
    expect(metrics).toContain('# TYPE faultline_spans_accepted_total counter');
    expect(metrics).toMatch(/faultline_spans_rejected_total\{reason="invalid"\} 1\n/);
    expect(metrics).toMatch(/faultline_otlp_responses_total\{code="413"\} 3\n/);
    expect(metrics).toMatch(/faultline_insert_duration_seconds_count [1-9]/);
    expect(metrics).toContain('faultline_writer_queue_depth 0');
    expect(metrics).toContain('faultline_writer_pending_insert_spans 0');
    expect(metrics).toContain('faultline_writer_ack_mode{mode="wal"} 1');
  });

  it('stored only the valid spans of everything sent to this file', async () => {
    await collector.writer.settle();
    expect(await countRows(ts.store, 'otel_traces')).toBe(2);
  });
});
