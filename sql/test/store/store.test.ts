import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/open-store.js';
import { listNamedQueries } from '../../src/store/named-queries.js';
import { QueryParamError } from '../../src/store/query-param-error.js';
import { resolveStoreOptions } from '../../src/store/store-options.js';
import type { Store } from '../../src/types.js';
import { makeFailureRow } from '../support/trace-row-fixture.js';

let dir: string;
let store: Store;
const window = { from: '2026-11-29T00:00:00Z', to: '2026-11-30T00:00:00Z', service: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-store-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows([
      makeFailureRow({ class: 'validation', source: 'http', code: '422', message: "it's bad" }),
    ]),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('shares one embedded engine per process and closes it with the last handle', async () => {
    expect(store.mode).toBe('embedded');
    const second = await openStore({ dataDir: join(dir, 'data') });
    expect(second.client).toBe(store.client);
    await second.close();
    await second.close();
    const { rows } = await store.runReadOnly<{ n: number }>('SELECT count() AS n FROM failures');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('refuses a second data directory in the same process with a clear error', async () => {
    await expect(openStore({ dataDir: join(dir, 'other') })).rejects.toThrow(
      /one process can open one data directory/,
    );
  });

  it('validates configuration before touching ClickHouse', () => {
    expect(() => resolveStoreOptions({}, { FAULTLINE_CLICKHOUSE_URL: 'clickhouse:9000' })).toThrow(
      /must be an http\(s\) URL|must use http/,
    );
    expect(() => resolveStoreOptions({}, { FAULTLINE_TTL_DAYS: '3 days' })).toThrow(
      /FAULTLINE_TTL_DAYS must be a whole number/,
    );
    expect(() => resolveStoreOptions({ database: 'x; DROP' })).toThrow(/must be a plain identifier/);
    const o = resolveStoreOptions(
      {},
      {
        FAULTLINE_CLICKHOUSE_URL: 'http://ch:8123',
        FAULTLINE_TTL_DAYS: '14',
        FAULTLINE_CLICKHOUSE_DATABASE: 'obs',
      },
    );
    expect(o).toMatchObject({ mode: 'server', url: 'http://ch:8123', ttlDays: 14, database: 'obs' });
    expect(resolveStoreOptions({}, {}).dataDir).toMatch(/\.faultline\/data$/);
  });
});

describe('runNamed', () => {
  it('binds typed parameters (quotes in values are data, not SQL)', async () => {
    const { rows, meta } = await store.runNamed<{ class: string; failures: number }>(
      'top_failure_classes',
      window,
    );
    expect(rows).toMatchObject([{ class: 'validation', failures: 1 }]);
    expect(meta.find((m) => m.name === 'failures')?.type).toBe('Float64');
    const none = await store.runNamed('top_failure_classes', { ...window, service: "x' OR 1=1 --" });
    expect(none.rows).toEqual([]);
  });

  it('says what is missing, unknown or mistyped, and what the query takes', async () => {
    await expect(store.runNamed('top_failure_classes', { from: window.from })).rejects.toThrow(
      /missing to \(DateTime64\(3\)\), service \(String\); it takes from: DateTime64\(3\), to: DateTime64\(3\), service: String/,
    );
    await expect(store.runNamed('top_failure_classes', { ...window, limit: 5 })).rejects.toThrow(
      /has no parameter limit/,
    );
    await expect(store.runNamed('top_failure_classes', { ...window, from: 'yesterday' })).rejects.toThrow(
      /parameter from \(DateTime64\(3\)\) got "yesterday": pass a Date, unix seconds, or an ISO-8601 time/,
    );
    await expect(store.runNamed('slowest_failures', { ...window, limit: -1 })).rejects.toThrow(
      /out of range 0\.\.4294967295/,
    );
    await expect(store.runNamed('slowest_failures', { ...window, limit: 1.5 })).rejects.toThrow(
      /expected an integer/,
    );
    await expect(store.runNamed('no_such_query', {})).rejects.toThrow(
      /no named query "no_such_query" in sql\/queries; known: .*top_failure_classes/,
    );
    await expect(store.runNamed('../schema/001_otel_traces', {})).rejects.toBeInstanceOf(QueryParamError);
  });

  it('lists named queries with their parameters for the console and the docs', () => {
    const q = listNamedQueries().find((x) => x.name === 'request_timeline');
    expect(q?.params).toEqual([
      { name: 'from', type: 'DateTime64(3)' },
      { name: 'to', type: 'DateTime64(3)' },
      { name: 'id', type: 'String' },
    ]);
    expect(q?.description).toMatch(/correlation id/);
  });
});

describe('runReadOnly (SQL console)', () => {
  it('refuses writes, DDL and lifting readonly, while the writer session keeps writing', async () => {
    await expect(store.runReadOnly('INSERT INTO failures (class) VALUES (1)')).rejects.toThrow(/readonly/i);
    await expect(store.runReadOnly('DROP TABLE failures')).rejects.toThrow(/readonly/i);
    await expect(store.runReadOnly('SELECT 1 SETTINGS readonly = 0')).rejects.toThrow(/readonly/i);
    await insertBatch(
      store.client,
      serializeRows([makeFailureRow({ class: 'permanent', source: 'db', code: '42P01' })]),
    );
    const { rows } = await store.runReadOnly<{ n: number }>('SELECT count() AS n FROM failures;');
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('caps rows and reports truncation; takes {p:Type} parameters', async () => {
    const capped = await store.runReadOnly<{ number: number }>(
      'SELECT number FROM numbers(100000)',
      {},
      { maxRows: 25 },
    );
    expect(capped.rows).toHaveLength(25);
    expect(capped.truncated).toBe(true);
    const small = await store.runReadOnly<{ code: string }>(
      'SELECT code FROM failures WHERE class = {c:String}',
      { c: 'permanent' },
    );
    expect(small).toMatchObject({ rows: [{ code: '42P01' }], truncated: false });
  });

  it('stops a query past its time limit', async () => {
    await expect(
      store.runReadOnly(
        'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 0',
        {},
        { maxExecutionSeconds: 1 },
      ),
    ).rejects.toThrow(/Timeout exceeded|Estimated query execution time/);
  });

  it('leaves no limit behind: a console row cap does not truncate the next named query', async () => {
    await store.runReadOnly('SELECT number FROM numbers(10)', {}, { maxRows: 1 });
    const { rows } = await store.runNamed('top_failure_classes', window);
    expect(rows).toHaveLength(2);
    const all = await store.client.query({ query: 'SELECT number FROM numbers(5)', format: 'JSONEachRow' });
    expect(await all.json()).toHaveLength(5);
  });

  it('explains an empty statement and bad limits', async () => {
    await expect(store.runReadOnly('  ;')).rejects.toThrow(/needs a statement/);
    await expect(store.runReadOnly('SELECT 1', {}, { maxRows: 0 })).rejects.toThrow(
      /maxRows must be a positive integer/,
    );
  });
});
