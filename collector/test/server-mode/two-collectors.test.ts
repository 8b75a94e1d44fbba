import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShimProcess, startShim } from '../../../sql/test/support/shim-process.js';
import { waitForInserted } from '../../src/client/wait-for-inserted.js';
import { exportSpans, makeSpans, type SpanSpec } from '../receiver/helpers/make-spans.js';
import { runCli, type StartedPart, startPart } from './start-part.js';

// Several stateless collectors, one ClickHouse server (the HTTP shim over chDB in its own process):
// a client that retries every export on the other collector (as after a timeout behind a load
// balancer). With FAULTLINE_INSERT_DEDUP=request each export is stored once in every table; with
// the default (segment) a retry whose export the two collectors batched differently lands again —
// at least once, as documented.
const EXPORTS = 12;
const SPANS_PER_EXPORT = 4; // 3 calls (1 failed) + the root server span makeSpans adds
const spec = (e: number): SpanSpec[] => [
  {
    name: 'POST /v1/charges',
    attributes: {
      'faultline.source': 'http',
      'faultline.class': 'rate_limit',
      'faultline.code': '429',
      'faultline.message': `e${e}`,
    },
    error: '429',
  },
  { name: 'GET /stock', attributes: { 'faultline.source': 'http' } },
  { name: 'SELECT orders', attributes: { 'faultline.source': 'db' } },
];

let dir: string;
let shim: ShimProcess;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-two-collectors-'));
  shim = await startShim(0, join(dir, 'clickhouse'));
  const env = { ...process.env, FAULTLINE_CLICKHOUSE_URL: `http://127.0.0.1:${shim.port}` };
  expect(runCli(['migrate', '--apply'], env).status).toBe(0);
  store = await openStore({ url: env.FAULTLINE_CLICKHOUSE_URL, applySchema: false });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function collectors(dedup: string): Promise<StartedPart[]> {
  const env = (n: number) => ({
    ...process.env,
    FAULTLINE_CLICKHOUSE_URL: `http://127.0.0.1:${shim.port}`,
    FAULTLINE_DATA_DIR: join(dir, `unused-${dedup}-${n}`),
    FAULTLINE_SPOOL_DIR: join(dir, `wal-${dedup}-${n}`),
    FAULTLINE_INSERT_DEDUP: dedup,
  });
  return Promise.all(
    [1, 2].map((n) =>
      startPart(['--role', 'collector', '--otlp-port', '0'], env(n), /^faultline: otlp (\S+)\/v1\/traces$/),
    ),
  );
}

/**
 * The client of a load-balanced deployment: every export goes to the first collector (concurrently,
 * so that collector batches them into one write-ahead segment), then, as a retry, the same bytes
 * to the second one by one (so it sees each on its own): the two never batch alike.
 */
async function sendTwice(service: string, urls: string[]) {
  const all = Array.from({ length: EXPORTS }, (_, e) => makeSpans(service, spec(e)));
  const send = async (url: string, spans: (typeof all)[number]) => {
    const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces` });
    const r = await exportSpans(exporter, spans);
    expect(r.ok, String(r.error)).toBe(true);
    await exporter.shutdown();
  };
  await Promise.all(all.map((spans) => send(urls[0]!, spans)));
  for (const spans of all) {
    await send(urls[1]!, spans);
    // Longer than the writer's linger (200 ms): each retry is a segment of its own.
    await new Promise((r) => setTimeout(r, 300));
  }
  for (const url of urls) await waitForInserted(url);
}

async function counts(service: string) {
  const q = async (sql: string) => {
    const rs = await store.client.query({ query: sql, query_params: { s: service }, format: 'JSONEachRow' });
    return Number(((await rs.json()) as { n: string }[])[0]?.n ?? 0);
  };
  return {
    spans: await q('SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}'),
    failures: await q('SELECT count() AS n FROM failures WHERE ServiceName = {s:String}'),
    calls: await q(
      "SELECT sum(calls) AS n FROM calls_1m WHERE ServiceName = {s:String} AND SpanKind = 'Client'",
    ),
    codes: await q('SELECT sum(failures) AS n FROM failure_codes_1m WHERE ServiceName = {s:String}'),
    dependencyCalls: await q(
      "SELECT sum(calls) AS n FROM dependency_calls_1m WHERE ServiceName = {s:String} AND SpanKind = 'Client'",
    ),
  };
}

describe('two collectors behind one retrying client', () => {
  it('FAULTLINE_INSERT_DEDUP=request: every span once in every table', async () => {
    const parts = await collectors('request');
    try {
      await sendTwice(
        'dedup-request',
        parts.map((p) => p.url),
      );
    } finally {
      await Promise.all(parts.map((p) => p.stop()));
    }
    expect(await counts('dedup-request')).toEqual({
      spans: EXPORTS * SPANS_PER_EXPORT,
      failures: EXPORTS,
      calls: EXPORTS * 3,
      codes: EXPORTS,
      dependencyCalls: EXPORTS * 3,
    });
  }, 120_000);

  it('default (segment): the retry lands again where the two collectors batched differently (at least once)', async () => {
    const parts = await collectors('segment');
    try {
      await sendTwice(
        'dedup-segment',
        parts.map((p) => p.url),
      );
    } finally {
      await Promise.all(parts.map((p) => p.stop()));
    }
    expect((await counts('dedup-segment')).spans).toBe(2 * EXPORTS * SPANS_PER_EXPORT);
  }, 120_000);
});
