import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

/**
 * Issue 28: one service (fixtures/library-service.cjs, an express app whose routes each make one
 * failing call against the real local servers, or fail in the handler) run three ways into a real
 * collector — under the Faultline preload, under stock auto-instrumentations-node, and under the
 * team's own NodeSDK with Faultline added (fixtures/own-sdk-faultline.cjs) — must leave the same
 * first-hand failure for each request: the one failure that happened, with the class its cause
 * means, wherever the spans carry the evidence.
 */
const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, 'fixtures');
const MODES = {
  preload: ['--require', '@faultline/instrumentation/register'],
  stock: ['--require', '@opentelemetry/auto-instrumentations-node/register'],
  'own-sdk': ['--require', join(FIXTURES, 'own-sdk-faultline.cjs')],
} as const;
type Mode = keyof typeof MODES;

interface Expected {
  class: string;
  code: string;
  retryable: boolean;
  /** Seconds to wait, where the span carries the Retry-After (the preload reads it; stock cannot). */
  retryAfter?: number;
  /** Codes stock spans carry instead, where the exception event names the error and not the code. */
  stockCode?: string;
}

/**
 * What each failure means, from the servers' and libraries' own references, not from the
 * classifier: the route's name is the case.
 */
const EXPECTED: Record<string, Expected> = {
  // The command does not fit the key's type: the request must change.
  'redis-wrongtype': { class: 'validation', code: 'WRONGTYPE', retryable: false },
  // ER_DUP_ENTRY: the row must change.
  'mysql-duplicate': { class: 'validation', code: '1062', retryable: false },
  // ER_ACCESS_DENIED_ERROR: the credential is refused.
  'mysql-login': { class: 'authentication', code: '1045', retryable: false },
  // AMQP 403 ACCESS_REFUSED in the handshake: the credential, not the load.
  'amqp-login': { class: 'authentication', code: '403', retryable: false },
  // AMQP 404 NOT_FOUND: the queue is not there; retrying the same declare fails the same way.
  'amqp-missing-queue': { class: 'permanent', code: '404', retryable: false },
  // Nothing listens where the database should be: it may come back.
  'pg-down': { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  // unique_violation (PostgreSQL Appendix A), through postgres.js.
  'postgres-duplicate': { class: 'validation', code: '23505', retryable: false },
  // SQLite's UNIQUE constraint (extended result code).
  'sqlite-unique': { class: 'validation', code: 'SQLITE_CONSTRAINT_UNIQUE', retryable: false },
  // NATS "503" no responders: nobody serves the subject right now; one may come back.
  'nats-no-responders': { class: 'transient', code: '503', retryable: true },
  // Nothing listens where the broker should be.
  'mqtt-refused': { class: 'transient', code: 'ECONNREFUSED', retryable: true },
  // A TypeError in the handler is a bug: retrying runs the same bug; the 500 is its echo.
  bug: { class: 'permanent', code: 'TypeError', retryable: false },
  // The handler's own 503 with Retry-After: an outage that says when to come back.
  unavailable: { class: 'transient', code: '503', retryable: true, retryAfter: 30 },
  // The service answers 429 with Retry-After: it limits its caller.
  busy: { class: 'rate_limit', code: '429', retryable: true, retryAfter: 5 },
};

const TOKEN = 'library-modes-token-0123456789abcdef';
let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('library-modes');
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

interface FirstHand {
  route: string;
  SpanKind: string;
  class: string;
  code: string;
  retryable: boolean;
  retry_after: number | null;
}

const outputs = new Map<Mode, string>();
const firstHand = new Map<Mode, FirstHand[]>();

async function runMode(mode: Mode): Promise<void> {
  const service = `fl-modes-${mode}-${process.pid}`;
  const { NODE_OPTIONS: _omit, ...inherited } = process.env;
  const child = await run(process.execPath, [...MODES[mode], join(FIXTURES, 'library-service.cjs')], {
    env: {
      ...inherited,
      OTEL_SERVICE_NAME: service,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
      OTEL_NODE_RESOURCE_DETECTORS: 'env',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The same instrumentations in every mode: the preload's default leaves out the socket and
      // lookup spans under every call (instrumentation/src/preload/sdk/instrumentations.ts).
      OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'dns,net',
    },
    timeout: 60_000,
  });
  outputs.set(mode, child.stdout);
  await collector.writer.settle();
  // Each request is its own trace: the server span's route names the case.
  const { rows } = await ts.store.runReadOnly<FirstHand>(
    `SELECT replaceOne(s.SpanAttributes['http.route'], '/', '') AS route, f.SpanKind AS SpanKind,
            f.class AS class, f.code AS code, f.retryable AS retryable, f.retry_after AS retry_after
     FROM first_hand_failures(from = '2000-01-01 00:00:00', to = '2100-01-01 00:00:00') AS f
     INNER JOIN (SELECT TraceId, SpanAttributes FROM otel_traces
                 WHERE ServiceName = {s:String} AND SpanKind = 'Server') AS s ON s.TraceId = f.TraceId
     WHERE f.ServiceName = {s:String}
     ORDER BY route`,
    { s: service },
  );
  firstHand.set(mode, rows);
}

beforeAll(async () => {
  // One after another: three services against the same local servers at once would race on them.
  for (const mode of Object.keys(MODES) as Mode[]) await runMode(mode);
}, 240_000);

describe.each(Object.keys(MODES) as Mode[])('the library service under %s', (mode) => {
  it('answers every route as it does without instrumentation', () => {
    const answered = Object.fromEntries(
      (outputs.get(mode) ?? '')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')),
    );
    expect(answered).toEqual({
      ...Object.fromEntries(Object.keys(EXPECTED).map((name) => [name, '500'])),
      unavailable: '503',
      busy: '429',
    });
  });

  it.each(Object.entries(EXPECTED))('%s: one first-hand failure, classified by its cause', (route, want) => {
    const rows = (firstHand.get(mode) ?? []).filter((r) => r.route === route);
    expect(rows.map((r) => ({ class: r.class, code: r.code, retryable: Boolean(r.retryable) }))).toEqual([
      {
        class: want.class,
        code: mode === 'stock' ? (want.stockCode ?? want.code) : want.code,
        retryable: want.retryable,
      },
    ]);
    if (want.retryAfter !== undefined && mode !== 'stock') expect(rows[0]?.retry_after).toBe(want.retryAfter);
  });
});
