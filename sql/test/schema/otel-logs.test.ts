import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore, resolveSqlDir } from '../../src/index.js';
import { BACKFILL_STEPS } from '../../src/migrate/backfill-steps.js';
import { applyMigration, planMigration } from '../../src/migrate/migrate.js';
import { readAppliedSteps, recordStep } from '../../src/migrate/schema-migrations.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, hexId, makeRow } from '../support/trace-row-fixture.js';

// otel_logs (070): the contrib exporter's logs table column for column, and the two views that
// turn classified records into failures, each failure counted once with the span it explains.
let dir: string;
let store: Store;
const T = Date.UTC(2026, 10, 29, 12, 0, 0);

/** The contrib exporter's DDL and INSERT (sql/compat), under another table name when asked. */
function compat(file: string, table = 'otel_logs'): string {
  return readFileSync(join(resolveSqlDir(), 'compat', file), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('--'))
    .join('\n')
    .trim()
    .replace(/\botel_logs\b/, table);
}

async function rows<T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await store.client.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

type LogRow = Record<string, unknown>;

function logRow(overrides: LogRow = {}): LogRow {
  return {
    Timestamp: dateTime64(T, 123_456_789),
    TraceId: '',
    SpanId: '',
    TraceFlags: 0,
    SeverityText: 'ERROR',
    SeverityNumber: 17,
    ServiceName: 'worker',
    Body: 'job failed',
    ResourceSchemaUrl: '',
    ResourceAttributes: { 'service.name': 'worker' },
    ScopeSchemaUrl: '',
    ScopeName: 'jobs.runner',
    ScopeVersion: '',
    ScopeAttributes: {},
    LogAttributes: {},
    EventName: '',
    ...overrides,
  };
}

/** A record's envelope as the collector writes it into LogAttributes. */
const envelope = (cls: string, code: string, extra: Record<string, string> = {}) => ({
  'exception.type': 'X',
  'faultline.class': cls,
  'faultline.code': code,
  'faultline.source': 'db',
  'faultline.message': `${cls} ${code}`,
  'faultline.retryable': String(cls === 'transient'),
  'faultline.classified_by': 'collector',
  ...extra,
});

/** A failed CLIENT span the collector classified with a guess (no exception event). */
function guessedSpan(overrides: Partial<TraceRow> = {}, attrs: Record<string, string> = {}): TraceRow {
  return makeRow({
    Timestamp: dateTime64(T),
    SpanKind: 'Client',
    SpanName: 'UPDATE stock',
    ServiceName: 'orders',
    StatusCode: 'Error',
    SpanAttributes: {
      'db.system.name': 'postgresql',
      'faultline.class': 'permanent',
      'faultline.source': 'db',
      'faultline.code': 'Error',
      'faultline.message': 'operation failed',
      'faultline.correlation_id': 'wf-1',
      'faultline.classified_by': 'collector',
      ...attrs,
    },
    ...overrides,
  });
}

const insertLogs = (batch: LogRow[], token?: string) =>
  insertBatch(store.client, serializeRows(batch as never), {
    table: 'otel_logs',
    ...(token ? { token } : {}),
  });
const insertSpans = (batch: TraceRow[]) => insertBatch(store.client, serializeRows(batch));

/** Failures of one trace (or of the span-less rows of one service) as every count reads them. */
async function counted(where: string, params: Record<string, unknown>) {
  return rows<{ class: string; code: string; n: number }>(
    `SELECT class, code, sum(weight) AS n FROM failures WHERE ${where} GROUP BY class, code HAVING n != 0 ORDER BY class`,
    params,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-otel-logs-'));
  store = await openStore({ dataDir: join(dir, 'data'), ttlDays: 7 });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('otel_logs and the contrib exporter', () => {
  it("has the exporter's columns, types, defaults, codecs, keys and partitioning", async () => {
    await store.client.command({ query: compat('exporter_logs_table.sql', 'exporter_logs') });
    const columns = (table: string) =>
      rows<Record<string, string>>(
        `SELECT name, type, default_kind, default_expression, compression_codec
         FROM system.columns WHERE database = currentDatabase() AND table = {t:String} ORDER BY position`,
        { t: table },
      );
    expect(await columns('otel_logs')).toEqual(await columns('exporter_logs'));
    const keys = (table: string) =>
      rows<Record<string, string>>(
        `SELECT partition_key, sorting_key, primary_key FROM system.tables
         WHERE database = currentDatabase() AND name = {t:String}`,
        { t: table },
      );
    expect(await keys('otel_logs')).toEqual(await keys('exporter_logs'));
    const indexes = (table: string) =>
      rows<Record<string, string>>(
        `SELECT name, type_full, expr, granularity FROM system.data_skipping_indices
         WHERE database = currentDatabase() AND table = {t:String} ORDER BY name`,
        { t: table },
      );
    expect(await indexes('otel_logs')).toEqual(await indexes('exporter_logs'));
  });

  it("accepts the exporter's INSERT exactly as the exporter's own table does", async () => {
    // Positional, as the exporter binds its `?`: time, ids, flags, severity, service, body, schema
    // URLs, scope, attribute maps, event name.
    const values = [
      [
        '2026-11-29 12:00:00.123456789',
        '0102030405060708090a0b0c0d0e0f10',
        '0102030405060708',
        1,
        'ERROR',
        17,
        'exporter-svc',
        'boom',
        'https://opentelemetry.io/schemas/1.4.0',
        { 'service.name': 'exporter-svc' },
        'https://opentelemetry.io/schemas/1.7.0',
        'io.opentelemetry.jdbc',
        '2.10.0',
        { 'scope.attr': 'x' },
        { 'exception.type': 'java.lang.IllegalStateException' },
        'exception',
      ],
    ];
    for (const table of ['otel_logs', 'exporter_logs']) {
      await store.client.exec({
        query: compat('exporter_logs_insert.sql', table),
        values: Readable.from([values.map((v) => JSON.stringify(v)).join('\n')]),
      });
    }
    const read = (table: string) =>
      rows<Record<string, unknown>>(
        `SELECT * EXCEPT (TimestampTime), toString(TimestampTime) AS second FROM ${table}
         WHERE ServiceName = 'exporter-svc'`,
      );
    const ours = await read('otel_logs');
    expect(ours).toHaveLength(1);
    expect(ours).toEqual(await read('exporter_logs'));
    expect(ours[0]).toMatchObject({
      Timestamp: '2026-11-29 12:00:00.123456789',
      second: '2026-11-29 12:00:00',
    });
    // The exporter's records carry no envelope: no failure is made of them.
    expect(await counted("ServiceName = 'exporter-svc'", {})).toEqual([]);
  });

  it('expires like otel_traces (FAULTLINE_TTL_DAYS)', async () => {
    const [t] = await rows<{ engine_full: string }>(
      "SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'otel_logs'",
    );
    expect(t!.engine_full).toContain('TTL TimestampTime + toIntervalDay(7)');
  });
});

describe('failures from log records', () => {
  it('a record with no span is a failure of its own, under an id no span has', async () => {
    await insertLogs([
      logRow({ LogAttributes: envelope('transient', '1205', { 'db.system.name': 'microsoft.sql_server' }) }),
      logRow({ Body: 'all good', SeverityNumber: 9, LogAttributes: {} }),
    ]);
    const [row] = await rows<Record<string, unknown>>(
      "SELECT SpanName, SpanKind, SpanId, ParentSpanId, class, code, source, dependency, weight FROM failures WHERE ServiceName = 'worker'",
    );
    expect(row).toMatchObject({
      SpanName: 'jobs.runner',
      SpanKind: 'Client',
      ParentSpanId: '',
      class: 'transient',
      code: '1205',
      source: 'db',
      dependency: 'microsoft.sql_server',
      weight: 1,
    });
    expect(String(row!.SpanId)).toMatch(/^log:[0-9a-f]{16}$/);
  });

  it("replaces a span's guess when its record comes after it, once, whatever more records come", async () => {
    const trace = hexId(16);
    const span = hexId(8);
    await insertSpans([guessedSpan({ TraceId: trace, SpanId: span })]);
    expect(await counted('TraceId = {t:String}', { t: trace })).toEqual([
      { class: 'permanent', code: 'Error', n: 1 },
    ]);
    const record = logRow({
      TraceId: trace,
      SpanId: span,
      ServiceName: 'orders',
      LogAttributes: envelope('transient', '40P01'),
    });
    // Two records of the span in one insert, and one more later: the guess is replaced once.
    await insertLogs([record, { ...record, Body: 'again' }]);
    await insertLogs([{ ...record, LogAttributes: envelope('validation', '23505') }]);
    expect(await counted('TraceId = {t:String}', { t: trace })).toEqual([
      { class: 'transient', code: '40P01', n: 1 },
    ]);
    // The negated copy matches the guess in every other column (whatever failures holds), so every
    // grouping that leaves the envelope out still counts the span once.
    const [dims] = await rows<{ groups: number; n: number }>(
      `SELECT count() AS groups, sum(n) AS n FROM (
         SELECT * EXCEPT (class, code, message, retryable, retry_after, raw, weight), sum(weight) AS n
         FROM failures WHERE TraceId = {t:String} GROUP BY ALL)`,
      { t: trace },
    );
    expect(dims).toEqual({ groups: 1, n: 1 });
    const [codes] = await rows<{ n: number }>(
      "SELECT sum(failures) AS n FROM failure_codes_1m WHERE ServiceName = 'orders' AND code = 'Error'",
    );
    expect(codes!.n).toBe(0);
    // The first-hand rule reads ids only: the replaced span is still one first-hand failure.
    const firstHand = await rows<{ class: string; n: number }>(
      `SELECT class, sum(weight) AS n FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
       WHERE TraceId = {t:String} GROUP BY class HAVING n != 0`,
      { from: (T - 60_000) / 1000, to: (T + 60_000) / 1000, t: trace },
    );
    expect(firstHand).toEqual([{ class: 'transient', n: 1 }]);
  });

  it('leaves alone a span with its own exception event, one a record informed, and one the preload classified', async () => {
    const own = { TraceId: hexId(16), SpanId: hexId(8) };
    const informed = { TraceId: hexId(16), SpanId: hexId(8) };
    const preload = { TraceId: hexId(16), SpanId: hexId(8) };
    await insertSpans([
      guessedSpan(
        {
          ...own,
          'Events.Name': ['exception'],
          'Events.Timestamp': [dateTime64(T)],
          'Events.Attributes': [{}],
        },
        { 'faultline.class': 'validation', 'faultline.code': '23505' },
      ),
      guessedSpan(informed, {
        'faultline.class': 'validation',
        'faultline.code': '23505',
        'faultline.exception_from': 'log',
      }),
      guessedSpan(preload, {
        'faultline.classified_by': '',
        'faultline.class': 'validation',
        'faultline.code': '23505',
      }),
    ]);
    await insertLogs(
      [own, informed, preload].map((ids) =>
        logRow({ ...ids, ServiceName: 'orders', LogAttributes: envelope('permanent', 'UniqueViolation') }),
      ),
    );
    for (const ids of [own, informed, preload]) {
      expect(await counted('TraceId = {t:String}', { t: ids.TraceId })).toEqual([
        { class: 'validation', code: '23505', n: 1 },
      ]);
    }
  });

  it("replaces a span's guess when its record was stored first (another collector's), once (075)", async () => {
    const trace = hexId(16);
    const span = hexId(8);
    const record = logRow({
      TraceId: trace,
      SpanId: span,
      ServiceName: 'orders',
      LogAttributes: envelope('transient', '40P01'),
    });
    await insertLogs([record]);
    // The span arrives where no collector remembered the record: stored as its guess.
    await insertSpans([guessedSpan({ TraceId: trace, SpanId: span })]);
    expect(await counted('TraceId = {t:String}', { t: trace })).toEqual([
      { class: 'transient', code: '40P01', n: 1 },
    ]);
    // The negated copy matches the guess in every other column, as 070's does.
    const [dims] = await rows<{ groups: number; n: number; stored: number }>(
      `SELECT count() AS groups, sum(n) AS n, sum(k) AS stored FROM (
         SELECT * EXCEPT (class, code, message, retryable, retry_after, raw, weight), sum(weight) AS n, count() AS k
         FROM failures WHERE TraceId = {t:String} GROUP BY ALL)`,
      { t: trace },
    );
    expect(dims).toEqual({ groups: 1, n: 1, stored: 3 });
    // A later record of the span finds it replaced already (three rows): nothing more.
    await insertLogs([
      {
        ...record,
        Timestamp: dateTime64(T + 1000),
        Body: 'again',
        LogAttributes: envelope('validation', '23505'),
      },
    ]);
    expect(await counted('TraceId = {t:String}', { t: trace })).toEqual([
      { class: 'transient', code: '40P01', n: 1 },
    ]);
    // Spans that are no guess keep their own rows whatever record was stored before them.
    const own = { TraceId: hexId(16), SpanId: hexId(8) };
    const informed = { TraceId: hexId(16), SpanId: hexId(8) };
    await insertLogs(
      [own, informed].map((ids) =>
        logRow({ ...ids, ServiceName: 'orders', LogAttributes: envelope('permanent', 'UniqueViolation') }),
      ),
    );
    await insertSpans([
      guessedSpan(
        {
          ...own,
          'Events.Name': ['exception'],
          'Events.Timestamp': [dateTime64(T)],
          'Events.Attributes': [{}],
        },
        { 'faultline.class': 'validation', 'faultline.code': '23505' },
      ),
      guessedSpan(informed, {
        'faultline.class': 'validation',
        'faultline.code': '23505',
        'faultline.exception_from': 'log',
      }),
    ]);
    for (const ids of [own, informed]) {
      expect(await counted('TraceId = {t:String}', { t: ids.TraceId })).toEqual([
        { class: 'validation', code: '23505', n: 1 },
      ]);
    }
  });

  it('a record of a span not stored (yet) makes no row; a replayed segment makes nothing twice', async () => {
    const trace = hexId(16);
    const span = hexId(8);
    const record = logRow({
      TraceId: trace,
      SpanId: span,
      ServiceName: 'orders',
      LogAttributes: envelope('transient', '40P01'),
    });
    await insertLogs([record]);
    expect(await counted('TraceId = {t:String}', { t: trace })).toEqual([]);
    // A write-ahead segment replayed under its token (the writer's crash recovery) is dropped, in
    // the views too: the span-less record stays one failure, the guess replaced once.
    const other = hexId(16);
    await insertSpans([guessedSpan({ TraceId: other, SpanId: span })]);
    const segment = [
      logRow({ ServiceName: 'replayed', LogAttributes: envelope('transient', '1205') }),
      logRow({
        TraceId: other,
        SpanId: span,
        ServiceName: 'orders',
        LogAttributes: envelope('transient', '40P01'),
      }),
    ];
    await insertLogs(segment, 'segment-7');
    await insertLogs(segment, 'segment-7');
    expect(await counted("ServiceName = 'replayed'", {})).toEqual([
      { class: 'transient', code: '1205', n: 1 },
    ]);
    expect(await counted('TraceId = {t:String}', { t: other })).toEqual([
      { class: 'transient', code: '40P01', n: 1 },
    ]);
    const [logs] = await rows<{ n: number }>(
      "SELECT count() AS n FROM otel_logs WHERE ServiceName = 'replayed'",
    );
    expect(Number(logs!.n)).toBe(1);
  });
});

describe('rebuilding failures (the migrator, when a view of it changes)', () => {
  it('replays the records after the spans: the same failures, counted the same', async () => {
    const snapshot = () =>
      rows<Record<string, unknown>>(
        `SELECT ServiceName, TraceId, SpanId, class, code, source, sum(weight) AS n FROM failures
         GROUP BY ALL HAVING n != 0 ORDER BY ALL`,
      );
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(5);
    const step = BACKFILL_STEPS.find((s) => s.name === 'failures')!;
    for (const a of (await readAppliedSteps(store.client)).filter(
      (a) => a.kind === 'backfill' && a.version === 10,
    ))
      await recordStep(store.client, { ...step, checksum: a.checksum }, 'stale', 0);
    const lines: string[] = [];
    await applyMigration(store.client, await planMigration(store.client, resolveSqlDir()), {
      ttlDays: 7,
      backfill: true,
      onProgress: (l) => lines.push(l),
    });
    expect(lines.find((l) => l.includes('] failures: rebuilt from'))).toMatch(
      /otel_traces row\(s\) before .*, and \d+ otel_logs row\(s\) in/,
    );
    expect(await snapshot()).toEqual(before);
  });
});
