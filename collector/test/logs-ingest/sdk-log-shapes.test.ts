import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGS_EXPORT_PATH } from '../../src/grpc/logs-service.js';
import { type Collector, startCollector } from '../../src/index.js';
import { otlpJsonToProtobuf } from '../golden/otlp-json-to-protobuf.js';
import { exportRaw } from '../grpc/helpers/grpc-client.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { failureCounts } from './helpers/logged-failures.js';
import { otlpLogsJsonToProtobuf } from './helpers/otlp-logs-to-protobuf.js';
import { type Scenario, scenario } from './helpers/sdk-log-shapes.js';

// The eight cases (helpers/sdk-log-shapes.ts) in both orders and both transports, through a
// real collector into chDB: each failure counted once, with the class and code written by hand.
const JSON_CT = { 'content-type': 'application/json' };
let ts: TestStore;
let collector: Collector;
const T0 = Date.now() - 60_000;

beforeAll(async () => {
  ts = await openTestStore('log-shapes');
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

const expectedRows = (s: Scenario) =>
  [...s.expected]
    .flatMap(([service, failures]) => failures.map((f) => ({ service, ...f })))
    .sort((a, b) => `${a.service} ${a.class} ${a.code}`.localeCompare(`${b.service} ${b.class} ${b.code}`));

async function postJson(path: string, body: object): Promise<void> {
  const res = await postTraces(collector.url, JSON.stringify(body), JSON_CT, { path });
  expect(res.status, res.body.toString()).toBe(200);
  expect(res.body.toString()).toBe('{}');
}

describe('failures that arrive as log records, counted once with their spans', () => {
  it('spans first, their records after (OTLP/HTTP JSON): each guess replaced', async () => {
    const s = scenario('spans-first', T0);
    await postJson('/v1/traces', s.traces);
    await collector.settle();
    // The guesses as stored before any record: what the issue saw (permanent, code Error; a 400).
    const guesses = await failureCounts(ts.store, s.services);
    expect(guesses.map((g) => `${g.service} ${g.class} ${g.code}`)).toEqual([
      'billing-dotnet-spans-first permanent Error',
      'ingest-py-spans-first validation 400',
      'orders-java-spans-first permanent Error',
      'signup-py-spans-first permanent Error',
      'stock-go-spans-first transient 40P01',
    ]);
    await postJson('/v1/logs', s.logs);
    await collector.settle();
    expect(await failureCounts(ts.store, s.services)).toEqual(expectedRows(s));
  });

  it('records first, their spans after (OTLP/HTTP JSON): each span classified with its record', async () => {
    const s = scenario('records-first', T0 + 1000);
    await postJson('/v1/logs', s.logs);
    await postJson('/v1/traces', s.traces);
    await collector.settle();
    expect(await failureCounts(ts.store, s.services)).toEqual(expectedRows(s));
    // Nothing was replaced: one row per failure.
    const { rows } = await ts.store.runReadOnly<{ n: number }>(
      'SELECT count() AS n FROM failures WHERE ServiceName IN {s:Array(String)}',
      { s: s.services },
    );
    expect(Number(rows[0]!.n)).toBe(7);
  });

  it('records first over gRPC LogsService, spans over TraceService (protobuf)', async () => {
    const s = scenario('grpc', T0 + 2000);
    const logs = await exportRaw(`127.0.0.1:${collector.grpcPort}`, otlpLogsJsonToProtobuf(s.logs), {
      path: LOGS_EXPORT_PATH,
    });
    expect(logs).toMatchObject({ code: 0 });
    expect(logs.response?.length).toBe(0);
    const traces = await exportRaw(`127.0.0.1:${collector.grpcPort}`, otlpJsonToProtobuf(s.traces));
    expect(traces).toMatchObject({ code: 0 });
    await collector.settle();
    expect(await failureCounts(ts.store, s.services)).toEqual(expectedRows(s));
  });

  it('counts each once first-hand too (first_hand_failures), the records with no span as their own', async () => {
    const s = scenario('spans-first', T0);
    const firstHand = await failureCounts(ts.store, s.services, { from: T0 - 60_000, to: T0 + 60_000 });
    expect(firstHand).toEqual(expectedRows(s));
    const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
      `SELECT ServiceName AS service, SpanKind AS kind, dependency, toBool(TraceId = '') AS no_trace,
              toBool(startsWith(SpanId, 'log:')) AS own_id
       FROM failures WHERE ServiceName IN {s:Array(String)} ORDER BY service`,
      { s: ['ingest-worker-py-spans-first', 'billing-worker-dotnet-spans-first'] },
    );
    expect(rows).toEqual([
      {
        service: 'billing-worker-dotnet-spans-first',
        kind: 'Internal',
        dependency: '',
        no_trace: true,
        own_id: true,
      },
      {
        service: 'ingest-worker-py-spans-first',
        kind: 'Client',
        dependency: 'sqs.eu-west-1.amazonaws.com',
        no_trace: true,
        own_id: true,
      },
    ]);
  });

  // A record carries the envelope it reads as on its own when its span had not come yet (Python's
  // LoggingHandler names the class only: UniqueViolation, whose system nothing says); only the span
  // it explains is counted, classified with the span's attributes.
  it('stores every record as the exporter would, and an INFO line is no failure', async () => {
    const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
      `SELECT ServiceName AS service, SeverityNumber AS severity, SeverityText AS text, Body AS body, ScopeName AS logger,
              toBool(TraceId != '') AS in_trace, TraceFlags AS flags, LogAttributes['faultline.class'] AS class,
              LogAttributes['faultline.code'] AS code, toBool(LogAttributes['exception.stacktrace'] != '') AS stack
       FROM otel_logs WHERE ServiceName LIKE '%-records-first' ORDER BY service, severity, body`,
    );
    expect(rows).toEqual([
      row(
        'billing-dotnet',
        9,
        'Information',
        'Posted invoice 41',
        'Billing.InvoicePoster',
        false,
        0,
        '',
        '',
        false,
      ),
      row(
        'billing-dotnet',
        17,
        'Error',
        'Failed to post invoice 42',
        'Billing.InvoicePoster',
        true,
        1,
        'transient',
        '1205',
        true,
      ),
      row(
        'billing-worker-dotnet',
        17,
        'Error',
        'Nightly close failed',
        'Billing.Nightly',
        false,
        0,
        'transient',
        '1205',
        false,
      ),
      row(
        'ingest-py',
        17,
        'ERROR',
        'write failed',
        'ingest.writer',
        true,
        1,
        'rate_limit',
        'ThrottlingException',
        true,
      ),
      row(
        'ingest-worker-py',
        17,
        'ERROR',
        'receive failed',
        'ingest.consumer',
        false,
        0,
        'rate_limit',
        'ThrottlingException',
        false,
      ),
      row(
        'orders-java',
        17,
        'ERROR',
        'Reserving stock failed',
        'com.example.orders.StockRepository',
        true,
        1,
        'transient',
        '40P01',
        true,
      ),
      row(
        'signup-py',
        17,
        'ERROR',
        'could not create user',
        'signup.views',
        true,
        1,
        'permanent',
        'UniqueViolation',
        true,
      ),
      row(
        'stock-go',
        17,
        'ERROR',
        'reserve failed',
        'github.com/example/stock',
        true,
        1,
        'transient',
        '40P01',
        false,
      ),
    ]);
  });

  it('the span a record informed carries the envelope; a span that came first keeps its guess in otel_traces', async () => {
    const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
      `SELECT ServiceName AS service, SpanAttributes['faultline.class'] AS class, SpanAttributes['faultline.code'] AS code,
              SpanAttributes['faultline.exception_from'] AS exception_from, length(Events.Name) AS events
       FROM otel_traces WHERE ServiceName IN ('orders-java-records-first', 'orders-java-spans-first') ORDER BY service`,
    );
    expect(rows).toEqual([
      {
        service: 'orders-java-records-first',
        class: 'transient',
        code: '40P01',
        exception_from: 'log',
        events: 0,
      },
      {
        service: 'orders-java-spans-first',
        class: 'permanent',
        code: 'Error',
        exception_from: '',
        events: 0,
      },
    ]);
  });
});

function row(
  service: string,
  severity: number,
  text: string,
  body: string,
  logger: string,
  inTrace: boolean,
  flags: number,
  cls: string,
  code: string,
  stack: boolean,
) {
  return {
    service: `${service}-records-first`,
    severity,
    text,
    body,
    logger,
    in_trace: inTrace,
    flags,
    class: cls,
    code,
    stack,
  };
}
