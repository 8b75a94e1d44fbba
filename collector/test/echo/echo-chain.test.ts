import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

/**
 * Issue 30's echo rule end to end: three real HTTP services under the Faultline preload
 * (fixtures/chain-service.cjs: storefront → checkout → inventory, each passing the request on with
 * fetch) into a real collector, inventory's INSERT failing 23505 against the local PostgreSQL.
 * Each request is one failure, wherever its echoes show: first_hand_failures must keep exactly the
 * one that happened — inventory's INSERT, whether inventory answers 422 (its server span a failure
 * row) or 200 with a GraphQL errors body (no failure row between checkout's call and the INSERT),
 * across two services or three.
 */
const FIXTURE = join(import.meta.dirname, 'fixtures', 'chain-service.cjs');
const TOKEN = 'echo-chain-token-0123456789abcdef';
const RUN = `${process.pid}_${Date.now() % 1e6}`;
const TABLE = `fl_echo_${RUN}`;
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };

let ts: TestStore;
let collector: Collector;
const children: ChildProcess[] = [];

function startService(name: string, nextUrl: string): Promise<string> {
  const { NODE_OPTIONS: _omit, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--require', '@faultline/instrumentation/register', FIXTURE], {
    env: {
      ...inherited,
      NEXT_URL: nextUrl,
      PG_TABLE: TABLE,
      OTEL_SERVICE_NAME: `${name}-${RUN}`,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
      OTEL_NODE_RESOURCE_DETECTORS: 'env',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened`)));
  });
}

/** SIGTERM to each service still running (the preload flushes its spans on it), then their exit. */
async function stopServices(): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

interface Row {
  request: string;
  service: string;
  kind: string;
  code: string;
  first_hand: number;
}

/** The failure rows of each request, by `<entry service> <path>`, with whether each is first-hand. */
const byRequest = new Map<string, Row[]>();
const answers = new Map<string, number>();

beforeAll(async () => {
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`CREATE TABLE ${TABLE} (id text PRIMARY KEY)`);
  await client.end();
  ts = await openTestStore('echo-chain');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
  const inventory = await startService('inventory', '');
  const checkout = await startService('checkout', inventory);
  const storefront = await startService('storefront', checkout);
  const entries = { checkout, storefront };
  let n = 0;
  for (const [entry, url] of Object.entries(entries)) {
    for (const path of ['/duplicate', '/duplicate-200', '/refuse']) {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ order: `o${n++}-${RUN}` }),
      });
      await res.arrayBuffer();
      answers.set(`${entry} ${path}`, res.status);
    }
  }
  await stopServices();
  await collector.writer.settle();
  // The request a failure belongs to: its trace's root span (the entry service's server span).
  const { rows } = await ts.store.runReadOnly<Row>(
    `SELECT concat(replaceRegexpOne(r.ServiceName, '-[0-9_]+$', ''), ' ', r.SpanAttributes['url.path']) AS request,
            replaceRegexpOne(f.ServiceName, '-[0-9_]+$', '') AS service, f.SpanKind AS kind, f.code AS code,
            (f.TraceId, f.SpanId) IN (SELECT TraceId, SpanId FROM first_hand_failures(from = '2000-01-01 00:00:00', to = '2100-01-01 00:00:00')) AS first_hand
     FROM failures AS f
     INNER JOIN (SELECT TraceId, ServiceName, SpanAttributes FROM otel_traces
                 WHERE ParentSpanId = '' AND SpanKind = 'Server' AND endsWith(ServiceName, {run:String})) AS r
       ON r.TraceId = f.TraceId
     WHERE endsWith(f.ServiceName, {run:String})
     ORDER BY request, f.Timestamp`,
    { run: `-${RUN}` },
  );
  for (const row of rows) {
    const list = byRequest.get(row.request) ?? [];
    list.push(row);
    byRequest.set(row.request, list);
  }
}, 120_000);

afterAll(async () => {
  await stopServices();
  await collector?.close();
  await ts?.cleanup();
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await client.end();
});

const firstHand = (request: string) =>
  (byRequest.get(request) ?? []).filter((r) => r.first_hand).map((r) => `${r.service} ${r.kind} ${r.code}`);
const echoes = (request: string) =>
  (byRequest.get(request) ?? []).filter((r) => !r.first_hand).map((r) => `${r.service} ${r.kind}`);

describe('a client call is an echo when its callee’s subtree holds the failure (issue 30)', () => {
  it('every request was answered as the services answer it', () => {
    expect(Object.fromEntries(answers)).toEqual({
      'checkout /duplicate': 422,
      'checkout /duplicate-200': 200,
      'checkout /refuse': 422,
      'storefront /duplicate': 422,
      'storefront /duplicate-200': 200,
      'storefront /refuse': 422,
    });
  });

  it('checkout → inventory → PostgreSQL 23505, answered 422: one first-hand failure, the INSERT', () => {
    expect(firstHand('checkout /duplicate')).toEqual(['inventory Client 23505']);
    expect(echoes('checkout /duplicate').sort()).toEqual([
      'checkout Client',
      'checkout Server',
      'inventory Server',
    ]);
  });

  it('the same failure answered 200 with an errors body: checkout’s call is still its echo', () => {
    expect(firstHand('checkout /duplicate-200')).toEqual(['inventory Client 23505']);
    // inventory's server span answered 200: no failure row of its own between the call and the INSERT.
    expect(echoes('checkout /duplicate-200')).toEqual(['checkout Client']);
  });

  it('four services (storefront → checkout → inventory → PostgreSQL): one first-hand failure either way', () => {
    expect(firstHand('storefront /duplicate')).toEqual(['inventory Client 23505']);
    expect(echoes('storefront /duplicate')).toHaveLength(5);
    expect(firstHand('storefront /duplicate-200')).toEqual(['inventory Client 23505']);
    expect(echoes('storefront /duplicate-200').sort()).toEqual(['checkout Client', 'storefront Client']);
  });

  it('inventory refusing the request on its own: its own 422 is the one failure, counted where it happened', () => {
    // The preload stores a 422 answer as the server span's failure: the failure is inventory's, and
    // checkout's call (and checkout's answer) its echoes. Were the callee's 422 not a failure row,
    // checkout's call would stay first-hand (sql/test/schema/first-hand-callee-subtree.test.ts).
    expect(firstHand('checkout /refuse')).toEqual(['inventory Server 422']);
    expect(firstHand('storefront /refuse')).toEqual(['inventory Server 422']);
  });
});
