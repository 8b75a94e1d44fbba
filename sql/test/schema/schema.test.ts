import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { applySchema, openStore, parseTtlDays, resolveSqlDir } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { EXPORTER_COLUMNS, insertAsExporter } from '../support/exporter-insert.js';
import { dateTime64, makeFailureRow, makeRow } from '../support/trace-row-fixture.js';

let dir: string;
let store: Store;

async function rows<T>(sql: string): Promise<T[]> {
  const rs = await store.client.query({ query: sql, format: 'JSONEachRow' });
  return rs.json<T>();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-schema-'));
  store = await openStore({ dataDir: join(dir, 'data'), ttlDays: 7 });
  const minute = Date.UTC(2026, 10, 29, 12, 0, 0);
  const batch: TraceRow[] = [
    makeRow({ Timestamp: dateTime64(minute + 1_000, 123_456), TraceId: 'trace-a' }),
    makeFailureRow(
      {
        class: 'rate_limit',
        source: 'http',
        code: '429',
        message: 'Rate limit exceeded',
        retryable: 'true',
        retry_after: '12',
        correlation_id: 'req_8f21c0',
        raw: '{"status":429}',
      },
      { Timestamp: dateTime64(minute + 2_000), TraceId: 'trace-a', Duration: 2_000_000 },
    ),
    makeFailureRow(
      {
        class: 'permanent',
        source: 'db',
        code: '23505',
        message: 'duplicate key',
        retryable: 'false',
        correlation_id: 'req_8f21c0',
        attempt: '2',
        misrouted_retry: 'true',
      },
      { Timestamp: dateTime64(minute + 3_000), TraceId: 'trace-a', Duration: 3_000_000 },
    ),
    // A pg span from another instrumentation: no faultline.source, db.system.name → 'db'.
    makeRow({
      Timestamp: dateTime64(minute + 4_000),
      SpanKind: 'Client',
      SpanName: 'SELECT test',
      SpanAttributes: { 'db.system.name': 'postgresql' },
      Duration: 4_000_000,
    }),
    // An Internal span without a source is not a call: it stays out of calls_1m.
    makeRow({ Timestamp: dateTime64(minute + 5_000), SpanKind: 'Internal', SpanAttributes: {} }),
    // Older exporter releases spell kinds and statuses the proto way.
    makeRow({
      Timestamp: dateTime64(minute + 6_000),
      ServiceName: 'legacy',
      SpanKind: 'SPAN_KIND_CLIENT',
      StatusCode: 'STATUS_CODE_ERROR',
      SpanAttributes: { 'rpc.system': 'grpc' },
    }),
  ];
  await insertAsExporter(store, batch);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('otel_traces', () => {
  it('has exactly the exporter column set and types', async () => {
    const cols = await rows<{ name: string; type: string }>(
      "SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'otel_traces' ORDER BY position",
    );
    expect(cols.map((c) => `${c.name} ${c.type}`)).toEqual([
      'Timestamp DateTime64(9)',
      'TraceId String',
      'SpanId String',
      'ParentSpanId String',
      'TraceState String',
      'SpanName LowCardinality(String)',
      'SpanKind LowCardinality(String)',
      'ServiceName LowCardinality(String)',
      'ResourceAttributes Map(LowCardinality(String), String)',
      'ScopeName String',
      'ScopeVersion String',
      'SpanAttributes Map(LowCardinality(String), String)',
      'Duration UInt64',
      'StatusCode LowCardinality(String)',
      'StatusMessage String',
      'Events.Timestamp Array(DateTime64(9))',
      'Events.Name Array(LowCardinality(String))',
      'Events.Attributes Array(Map(LowCardinality(String), String))',
      'Links.TraceId Array(String)',
      'Links.SpanId Array(String)',
      'Links.TraceState Array(String)',
      'Links.Attributes Array(Map(LowCardinality(String), String))',
    ]);
    expect(EXPORTER_COLUMNS).toHaveLength(22);
  });

  it('keeps the exporter sort key, partitioning, skip indexes and the configured TTL', async () => {
    const [t] = await rows<{
      engine_full: string;
      sorting_key: string;
      partition_key: string;
      primary_key: string;
    }>(
      "SELECT engine_full, sorting_key, partition_key, primary_key FROM system.tables WHERE database = currentDatabase() AND name = 'otel_traces'",
    );
    expect(t!.partition_key).toBe('toDate(Timestamp)');
    expect(t!.primary_key).toBe('ServiceName, SpanName, toDateTime(Timestamp)');
    expect(t!.sorting_key).toBe('ServiceName, SpanName, toDateTime(Timestamp), Timestamp');
    expect(t!.engine_full).toContain('TTL toDateTime(Timestamp) + toIntervalDay(7)');
    expect(t!.engine_full).toContain('ttl_only_drop_parts = 1');
    const idx = await rows<{ name: string; type_full: string }>(
      "SELECT name, type_full FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'otel_traces' ORDER BY name",
    );
    expect(idx).toEqual([
      { name: 'idx_duration', type_full: 'minmax' },
      { name: 'idx_res_attr_key', type_full: 'bloom_filter(0.01)' },
      { name: 'idx_res_attr_value', type_full: 'bloom_filter(0.01)' },
      { name: 'idx_span_attr_key', type_full: 'bloom_filter(0.01)' },
      { name: 'idx_span_attr_value', type_full: 'bloom_filter(0.01)' },
      { name: 'idx_trace_id', type_full: 'bloom_filter(0.001)' },
    ]);
  });

  it('stores nanosecond timestamps from the decimal unix form', async () => {
    const [r] = await rows<{ ts: string }>(
      "SELECT toString(Timestamp) AS ts FROM otel_traces WHERE SpanKind = 'Server' AND SpanName = 'GET /checkout'",
    );
    expect(r!.ts).toBe('2026-11-29 12:00:01.000123456');
  });

  it('fills the trace-id lookup table', async () => {
    const [r] = await rows<{ Start: string; End: string }>(
      "SELECT min(Start) AS Start, max(End) AS End FROM otel_traces_trace_id_ts WHERE TraceId = 'trace-a'",
    );
    expect(r).toEqual({ Start: '2026-11-29 12:00:01', End: '2026-11-29 12:00:03' });
  });
});

describe('failures', () => {
  it('gets one typed row per envelope, from a writer that knows only the exporter columns', async () => {
    const got = await rows<Record<string, unknown>>(
      'SELECT class, source, code, message, retryable, retry_after, correlation_id, raw, attempt, misrouted_retry, ServiceName, SpanKind, TraceId, Duration FROM failures ORDER BY Timestamp',
    );
    expect(got).toEqual([
      {
        class: 'rate_limit',
        source: 'http',
        code: '429',
        message: 'Rate limit exceeded',
        retryable: true,
        retry_after: 12,
        correlation_id: 'req_8f21c0',
        raw: '{"status":429}',
        attempt: 1,
        misrouted_retry: false,
        ServiceName: 'checkout',
        SpanKind: 'Client',
        TraceId: 'trace-a',
        Duration: 2_000_000,
      },
      {
        class: 'permanent',
        source: 'db',
        code: '23505',
        message: 'duplicate key',
        retryable: false,
        retry_after: null,
        correlation_id: 'req_8f21c0',
        raw: '',
        attempt: 2,
        misrouted_retry: true,
        ServiceName: 'checkout',
        SpanKind: 'Client',
        TraceId: 'trace-a',
        Duration: 3_000_000,
      },
    ]);
  });
});

describe('calls_1m', () => {
  it('counts every client and server call with failures, retries and misroutes per source × class × code', async () => {
    const got = await rows<Record<string, unknown>>(`
      SELECT toString(minute) AS minute, SpanKind, source, class, code, sum(calls) AS calls, sum(failures) AS failures,
             sum(retryable_failures) AS retryable_failures, sum(retries) AS retries, sum(misrouted) AS misrouted,
             sum(duration_ns_sum) AS duration_ns_sum
      FROM calls_1m WHERE ServiceName = 'checkout' GROUP BY minute, SpanKind, source, class, code ORDER BY SpanKind, source, class`);
    expect(got).toEqual([
      {
        minute: '2026-11-29 12:00:00',
        SpanKind: 'Client',
        source: 'db',
        class: '',
        code: '',
        calls: 1,
        failures: 0,
        retryable_failures: 0,
        retries: 0,
        misrouted: 0,
        duration_ns_sum: 4_000_000,
      },
      {
        minute: '2026-11-29 12:00:00',
        SpanKind: 'Client',
        source: 'db',
        class: 'permanent',
        code: '23505',
        calls: 1,
        failures: 1,
        retryable_failures: 0,
        retries: 1,
        misrouted: 1,
        duration_ns_sum: 3_000_000,
      },
      {
        minute: '2026-11-29 12:00:00',
        SpanKind: 'Client',
        source: 'http',
        class: 'rate_limit',
        code: '429',
        calls: 1,
        failures: 1,
        retryable_failures: 1,
        retries: 0,
        misrouted: 0,
        duration_ns_sum: 2_000_000,
      },
      {
        minute: '2026-11-29 12:00:00',
        SpanKind: 'Server',
        source: 'http',
        class: '',
        code: '',
        calls: 1,
        failures: 0,
        retryable_failures: 0,
        retries: 0,
        misrouted: 0,
        duration_ns_sum: 1_500_000,
      },
    ]);
    const legacy = await rows<Record<string, unknown>>(
      "SELECT SpanKind, source, sum(calls) AS calls, sum(failures) AS failures FROM calls_1m WHERE ServiceName = 'legacy' GROUP BY SpanKind, source",
    );
    expect(legacy).toEqual([{ SpanKind: 'Client', source: 'rpc', calls: 1, failures: 1 }]);
  });
});

describe('schema files', () => {
  async function engineFull(table: string): Promise<string> {
    const [t] = await rows<{ engine_full: string }>(
      `SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = '${table}'`,
    );
    return t!.engine_full;
  }

  it('apply again in order without error or data change (idempotent)', async () => {
    const files = await applySchema(store.client, resolveSqlDir(), { ttlDays: 7 });
    expect(files.slice(0, 10)).toEqual([
      '000_schema_migrations.sql',
      '001_otel_traces.sql',
      '002_otel_traces_trace_id_ts.sql',
      '005_functions.sql',
      '006_dependency_function.sql',
      '007_agent_rules.sql',
      '010_failures.sql',
      '020_calls_1m.sql',
      '030_first_hand_failures.sql',
      '040_dependency_calls_1m.sql',
    ]);
    const [n] = await rows<{ n: number }>('SELECT count() AS n FROM otel_traces');
    expect(n!.n).toBe(6);
  });

  it('changes and removes the TTL on every table when FAULTLINE_TTL_DAYS changes', async () => {
    await applySchema(store.client, resolveSqlDir(), { ttlDays: 30 });
    expect(await engineFull('failures')).toContain('TTL toDateTime(Timestamp) + toIntervalDay(30)');
    expect(await engineFull('calls_1m')).toContain('TTL minute + toIntervalDay(30)');
    expect(await engineFull('otel_traces_trace_id_ts')).toContain(
      'TTL toDateTime(Start) + toIntervalDay(30)',
    );
    await applySchema(store.client, resolveSqlDir(), { ttlDays: 0 });
    expect(await engineFull('otel_traces')).not.toContain(' TTL ');
  });

  it('refuses a TTL that is not a whole number of days, before any SQL runs', () => {
    for (const bad of ['7; DROP TABLE otel_traces', '-1', '1.5', 'seven', '99999999']) {
      expect(() => parseTtlDays(bad, 'FAULTLINE_TTL_DAYS')).toThrow(
        /FAULTLINE_TTL_DAYS must be a whole number of days/,
      );
    }
    expect(parseTtlDays(' 14 ', 'FAULTLINE_TTL_DAYS')).toBe(14);
  });
});

describe('the writer row format (TraceRow as JSONEachRow)', () => {
  it('round-trips events and links through the flattened Nested columns', async () => {
    const row = makeRow({
      ServiceName: 'events-svc',
      SpanKind: 'Internal',
      'Events.Timestamp': [dateTime64(Date.UTC(2026, 10, 29, 12, 0, 0), 42)],
      'Events.Name': ['exception'],
      'Events.Attributes': [{ 'exception.type': 'Error', 'exception.message': 'boom' }],
      'Links.TraceId': ['0af7651916cd43dd8448eb211c80319c'],
      'Links.SpanId': ['b7ad6b7169203331'],
      'Links.TraceState': ['vendor=1'],
      'Links.Attributes': [{ kind: 'follows' }],
    });
    await insertBatch(store.client, serializeRows([row]));
    const [got] = await rows<Record<string, unknown>>(
      "SELECT Events.Name AS n, arrayMap(t -> toString(t), Events.Timestamp) AS t, Events.Attributes AS a, Links.TraceId AS l, Links.Attributes AS la FROM otel_traces WHERE ServiceName = 'events-svc'",
    );
    expect(got).toEqual({
      n: ['exception'],
      t: ['2026-11-29 12:00:00.000000042'],
      a: [{ 'exception.type': 'Error', 'exception.message': 'boom' }],
      l: ['0af7651916cd43dd8448eb211c80319c'],
      la: [{ kind: 'follows' }],
    });
  });
});
