import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

/**
 * End to end with no Faultline preload: a real child process under stock
 * @opentelemetry/auto-instrumentations-node exports to the collector over OTLP/HTTP protobuf and
 * over OTLP/gRPC, against the local HTTP server, a refused port, PostgreSQL, MariaDB and Redis.
 * Every failed call must become a `failures` row with the class and code the failure means.
 */
const run = promisify(execFile);
const TOKEN = 'stock-otel-test-token-0123456789';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('stock-otel');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

interface FailureRow {
  TraceId: string;
  SpanId: string;
  SpanKind: string;
  SpanName: string;
  class: string;
  source: string;
  code: string;
  retryable: boolean;
  correlation_id: string;
}

describe.each([
  ['http/protobuf', () => collector.url],
  ['grpc', () => collector.grpcUrl],
])('stock OpenTelemetry JS auto-instrumentation, no preload, over %s', (protocol, endpoint) => {
  it('every failed call becomes a failures row, one correlation id for the request', async () => {
    const service = `stock-${protocol.replace('/', '-')}-${process.pid}`;
    const { NODE_OPTIONS: _omit, ...inherited } = process.env;
    const child = await run(
      process.execPath,
      [
        '--require',
        '@opentelemetry/auto-instrumentations-node/register',
        join(import.meta.dirname, 'fixtures/stock-service.cjs'),
      ],
      {
        env: {
          ...inherited,
          OTEL_SERVICE_NAME: service,
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint(),
          OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
          OTEL_NODE_RESOURCE_DETECTORS: 'env',
          OTEL_BSP_SCHEDULE_DELAY: '100',
          OTEL_LOG_LEVEL: 'warn',
        },
        timeout: 30_000,
      },
    );
    expect(child.stderr).toBe('');
    await collector.writer.settle();
    const { rows } = await ts.store.runReadOnly<FailureRow>(
      `SELECT TraceId, SpanId, SpanKind, SpanName, class, source, code, retryable, correlation_id
       FROM failures WHERE ServiceName = {s:String} ORDER BY Timestamp`,
      { s: service },
    );
    // ioredis sends `CLIENT SETINFO` while connecting; a Redis older than 7.2 answers "ERR unknown
    // subcommand" and ioredis ignores it. A failed command on the wire, yet not the application's
    // call: left out here (see the report; the preload counts it the same way today).
    const clients = rows.filter(
      (r) => r.SpanKind === 'Client' && !(r.SpanName === 'client' && r.code === 'ERR'),
    );
    const got = clients.map((r) => `${r.source} ${r.code} ${r.class} ${r.retryable}`).sort();
    // Expected from what each failure means (RFC 9110 statuses, PostgreSQL Appendix A, MySQL's
    // error reference, Redis' WRONGTYPE, a refused connection), not from the classifier.
    expect(got).toEqual(
      [
        'db 1062 validation false', // ER_DUP_ENTRY (MariaDB, mysql2)
        'db 23505 validation false', // unique_violation (pg)
        'db 40P01 transient true', // deadlock_detected: the victim's transaction may be rerun
        'db WRONGTYPE validation false', // ioredis: the command does not fit the key's type
        'http 401 authentication false',
        'http 404 permanent false',
        'http 422 validation false',
        'http 429 rate_limit true',
        'http 503 transient true',
        'http ECONNREFUSED transient true',
      ].sort(),
    );
    // One request, one trace: every failure carries the trace id as its correlation id.
    const traceIds = new Set(clients.map((r) => r.TraceId));
    expect(traceIds.size).toBe(1);
    expect(new Set(clients.map((r) => r.correlation_id))).toEqual(traceIds);
    // Each status the server answered is its failure too, 4xx and 5xx alike: the rule the preload
    // applies to a server span (failingHttpStatusOf).
    const servers = rows.filter((r) => r.SpanKind === 'Server').map((r) => r.code);
    expect(servers.sort()).toEqual(['401', '404', '422', '429', '503']);
    // So each HTTP client failure is the echo of the server span that answered it; the refused
    // port, where no server answered, stays first-hand on the client.
    const { rows: firstHand } = await ts.store.runReadOnly<FailureRow>(
      `SELECT SpanKind, source, code FROM first_hand_failures(from = '2000-01-01 00:00:00', to = '2100-01-01 00:00:00')
       WHERE ServiceName = {s:String}`,
      { s: service },
    );
    const http = (k: string) =>
      firstHand
        .filter((r) => r.SpanKind === k && r.source === 'http')
        .map((r) => r.code)
        .sort();
    expect(http('Client')).toEqual(['ECONNREFUSED']);
    expect(http('Server')).toEqual(['401', '404', '422', '429', '503']);
    // Marked, so a reader can tell the collector's envelopes from the preload's.
    const { rows: marks } = await ts.store.runReadOnly<{ n: string }>(
      `SELECT count() AS n FROM otel_traces WHERE ServiceName = {s:String}
       AND SpanAttributes['faultline.classified_by'] = 'collector'`,
      { s: service },
    );
    expect(Number(marks[0]!.n)).toBe(rows.length);
  }, 60_000);
});
