import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

/**
 * Golden test of the lean export: the real preload leaves off the wire what the collector derives
 * (a correlation id equal to the trace id, a success's source, a root server span's entry mark,
 * the envelope of a server span that failed by its status alone), and the collector puts it back. The same service and requests run twice, once lean (the default)
 * and once with FAULTLINE_EXPORT_DERIVED=on (every attribute travels, as before); the stored rows
 * must say the same thing span for span: every faultline.* attribute, error.type, status and the
 * set of attribute keys. Real drivers against the local PostgreSQL, MariaDB and Redis.
 */
const SERVICE = fileURLToPath(new URL('../../../instrumentation/test/fixtures/service.mjs', import.meta.url));
const CORRELATION_ID = `fl-derived-${process.pid}`;
/** A remote parent (what an instrumented caller sends): its server span is not the entry. */
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

let ts: TestStore;
let collector: Collector;
let upstream: Server;
let upstreamUrl: string;
let closedUrl: string;

interface StoredRow {
  ServiceName: string;
  TraceId: string;
  ParentSpanId: string;
  SpanName: string;
  SpanKind: string;
  StatusCode: string;
  StatusMessage: string;
  SpanAttributes: Record<string, string>;
  ResourceAttributes: Record<string, string>;
}

beforeAll(async () => {
  ts = await openTestStore('derived');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
  upstream = createServer((req, res) => {
    const path = req.url ?? '/';
    const status = Number(/^\/status\/(\d{3})$/.exec(path)?.[1] ?? 200);
    const body =
      path === '/ok-false'
        ? '{"ok":false,"error":{"code":"insufficient_funds","message":"no"}}'
        : status >= 400
          ? `{"error":"status ${status}"}`
          : '{"ok":true}';
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((r) => closed.close(() => r()));
}, 60_000);

afterAll(async () => {
  await collector?.close();
  await new Promise<void>((r) => (upstream ? upstream.close(() => r()) : r()));
  await ts?.cleanup();
});

/** Runs the fixture service under the preload, sends the five requests, stops it (it flushes). */
async function runService(name: string, env: Record<string, string>): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', '@faultline/instrumentation/register', SERVICE],
    {
      env: {
        PATH: process.env.PATH ?? '',
        OTEL_SERVICE_NAME: name,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        UPSTREAM_URL: upstreamUrl,
        CLOSED_URL: closedUrl,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c;
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c;
      const m = /\{"port":(\d+)\}/.exec(stdout);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`service exited early (${code}): ${stderr}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  // Sequential: the two runs' spans then start in the same order.
  await (await fetch(`${base}/scenario`, { headers: { 'x-correlation-id': CORRELATION_ID } })).text();
  await (await fetch(`${base}/scenario`)).text();
  await (await fetch(`${base}/repeat`, { headers: { traceparent: TRACEPARENT } })).text();
  // Two the service fails: a 502 echoing its upstream's 500, and a 404 of its own.
  await (await fetch(`${base}/leaf`)).text();
  await (await fetch(`${base}/no-such-route`)).text();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function storedRows(service: string): Promise<StoredRow[]> {
  const { rows } = await ts.store.runReadOnly<StoredRow>(
    `SELECT ServiceName, TraceId, ParentSpanId, SpanName, SpanKind, StatusCode, StatusMessage,
            SpanAttributes, ResourceAttributes
     FROM otel_traces WHERE ServiceName = {service:String} ORDER BY Timestamp, SpanName, SpanId`,
    { service },
  );
  return rows;
}

/** What a row says, with the values that differ between any two runs (ids, ports, times) left out. */
function meaning(row: StoredRow): Record<string, unknown> {
  const attrs = row.SpanAttributes;
  const faultline = Object.fromEntries(
    Object.entries(attrs)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .filter(([k]) => k.startsWith('faultline.') || k === 'error.type')
      .map(([k, v]) => [k, k === 'faultline.correlation_id' && v === row.TraceId ? '<trace id>' : v]),
  );
  // The redis key holds the pid and a timestamp; a raw JSON may quote a port.
  if (typeof faultline['faultline.raw'] === 'string') {
    faultline['faultline.raw'] = faultline['faultline.raw'].replace(/\d{4,}/g, 'N');
  }
  return {
    name: row.SpanName,
    kind: row.SpanKind,
    root: row.ParentSpanId === '',
    status: row.StatusCode,
    statusMessage: row.StatusMessage.replace(/\d{4,}/g, 'N'),
    keys: Object.keys(attrs).sort(),
    faultline,
  };
}

describe('the preload exports lean and the collector restores what it derives', () => {
  let lean: StoredRow[];
  let full: StoredRow[];

  beforeAll(async () => {
    const leanName = `derived-lean-${process.pid}`;
    const fullName = `derived-full-${process.pid}`;
    await runService(leanName, {});
    await runService(fullName, { FAULTLINE_EXPORT_DERIVED: 'on' });
    await collector.writer.settle();
    [lean, full] = await Promise.all([storedRows(leanName), storedRows(fullName)]);
  }, 120_000);

  it('stores the same rows span for span as when every attribute travelled', () => {
    expect(lean.length).toBeGreaterThan(20);
    // As multisets: spans that start in the same millisecond may be stored in either order.
    const canonical = (rows: StoredRow[]) => rows.map((r) => JSON.stringify(meaning(r))).sort();
    expect(canonical(lean)).toEqual(canonical(full));
  });

  it('restores the ground truth of the scenario', () => {
    const byTrace = new Map<string, StoredRow[]>();
    for (const row of lean) byTrace.set(row.TraceId, [...(byTrace.get(row.TraceId) ?? []), row]);
    // The five requests are five traces.
    expect(byTrace.size).toBe(5);
    const roots = lean.filter((r) => r.SpanKind === 'Server' && r.ParentSpanId === '');
    // Four requests arrived from outside: their root server spans are the entry; the /repeat had a caller.
    expect(roots).toHaveLength(4);
    for (const r of roots) expect(r.SpanAttributes['faultline.entry']).toBe('true');
    const called = lean.find((r) => r.SpanKind === 'Server' && r.ParentSpanId !== '');
    expect(called?.SpanAttributes['faultline.entry']).toBeUndefined();
    expect(called?.TraceId).toBe(TRACEPARENT.split('-')[1]);
    // The request with x-correlation-id carries it on every span; the others their trace id.
    const headerTrace = lean.find(
      (r) => r.SpanAttributes['faultline.correlation_id'] === CORRELATION_ID,
    )?.TraceId;
    expect(headerTrace).toBeDefined();
    for (const r of lean) {
      expect(r.SpanAttributes['faultline.correlation_id']).toBe(
        r.TraceId === headerTrace ? CORRELATION_ID : r.TraceId,
      );
      expect(r.ResourceAttributes['telemetry.distro.name']).toBe('faultline');
    }
    // The service's own failures, stored with the envelope their status gives and counted in failures.
    const failedServers = lean.filter((r) => r.SpanKind === 'Server' && r.StatusCode === 'Error');
    expect(
      failedServers
        .map((r) => [
          r.SpanAttributes['url.path'],
          r.SpanAttributes['faultline.class'],
          r.SpanAttributes['faultline.code'],
          r.StatusMessage,
          r.SpanAttributes['faultline.propagated'],
        ])
        .sort(),
    ).toEqual([
      ['/leaf', 'transient', '502', 'HTTP 502 Bad Gateway', 'true'],
      ['/no-such-route', 'permanent', '404', 'HTTP 404 Not Found', undefined],
    ]);
    // Every client call has its source: the pg query, the redis command, the HTTP GETs.
    const clients = lean.filter((r) => r.SpanKind === 'Client');
    const sources = new Set(clients.map((r) => r.SpanAttributes['faultline.source']));
    expect(sources).toEqual(new Set(['http', 'db']));
    expect(clients.every((r) => r.SpanAttributes['faultline.source'] !== undefined)).toBe(true);
  });
});
