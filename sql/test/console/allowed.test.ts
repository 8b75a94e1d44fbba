import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { listNamedQueries } from '../../src/store/named-queries.js';
import type { Store } from '../../src/types.js';
import { type ConsoleStore, openConsoleStore, SEEDED, seedCalls } from './helpers/console-store.js';

// What incident review needs still answers, with the right rows: SELECT / WITH / EXPLAIN / SHOW /
// DESCRIBE over failures, otel_traces, calls_1m and the parameterized views; every named query in
// sql/queries (the console offers them to copy and adapt) passes the console's check.
let cs: ConsoleStore;
let store: Store;
const range = `from = '${SEEDED.from}', to = '${SEEDED.to}'`;

beforeAll(async () => {
  cs = await openConsoleStore('allowed');
  store = cs.store;
  await seedCalls(store);
});

afterAll(async () => {
  await cs?.close();
});

const rows = async <T = Record<string, unknown>>(sql: string, params?: Record<string, unknown>) =>
  (await store.runReadOnly<T>(sql, params)).rows;

describe("Faultline's tables", () => {
  it('failures by class, otel_traces by service, calls_1m per service', async () => {
    expect(await rows('SELECT class, count() AS n FROM failures GROUP BY class ORDER BY class')).toEqual(
      Object.entries(SEEDED.failuresByClass).map(([c, n]) => ({ class: c, n })),
    );
    expect(
      await rows(
        'SELECT ServiceName AS service, count() AS n FROM otel_traces GROUP BY service ORDER BY service',
      ),
    ).toEqual([
      { service: 'checkout', n: 5 },
      { service: 'payments', n: 1 },
    ]);
    expect(
      await rows(
        'SELECT ServiceName AS service, sum(calls) AS calls, sum(failures) AS failures FROM default.calls_1m GROUP BY service ORDER BY service',
      ),
    ).toEqual(Object.entries(SEEDED.callsByService).map(([service, c]) => ({ service, ...c })));
  });

  it('the result names its columns and their ClickHouse types, 64-bit integers as numbers', async () => {
    const r = await store.runReadOnly(
      "SELECT count() AS n, 'x' AS s, toDateTime('2026-11-29 12:00:00', 'UTC') AS t",
    );
    expect(r).toEqual({
      rows: [{ n: 1, s: 'x', t: '2026-11-29 12:00:00' }],
      meta: [
        { name: 'n', type: 'UInt64' },
        { name: 's', type: 'String' },
        { name: 't', type: "DateTime('UTC')" },
      ],
      truncated: false,
    });
  });

  it('WITH, subqueries, IN, joins, UNION with a shared WITH, windows, lambdas, Faultline functions', async () => {
    expect(
      await rows(`WITH recent AS (SELECT class, code FROM failures WHERE Timestamp >= '${SEEDED.from}')
        SELECT class, count() AS n FROM recent WHERE code IN (SELECT code FROM recent WHERE class = 'rate_limit')
        GROUP BY class`),
    ).toEqual([{ class: 'rate_limit', n: 2 }]);
    expect(
      await rows(`WITH c AS (SELECT DISTINCT class FROM failures)
        SELECT count() AS n FROM c UNION ALL SELECT count() FROM c WHERE class != ''`),
    ).toEqual([{ n: 3 }, { n: 3 }]);
    expect(
      await rows(`SELECT f.class AS class, t.ServiceName AS service FROM failures AS f
        INNER JOIN otel_traces AS t ON t.SpanId = f.SpanId WHERE f.class = 'validation'`),
    ).toEqual([{ class: 'validation', service: 'payments' }]);
    expect(
      await rows(`SELECT class, n, sum(n) OVER w AS running FROM (SELECT class, count() AS n FROM failures GROUP BY class)
        WINDOW w AS (ORDER BY class) ORDER BY class`),
    ).toEqual([
      { class: 'rate_limit', n: 2, running: 2 },
      { class: 'transient', n: 1, running: 3 },
      { class: 'validation', n: 1, running: 4 },
    ]);
    expect(
      await rows(`SELECT arrayMap(x -> x * 2, [1, 2]) AS doubled, faultline_span_kind('Client') AS kind,
        countIf(retryable) AS r FROM failures`),
    ).toEqual([{ doubled: [2, 4], kind: 'Client', r: 3 }]);
    expect(
      await rows("SELECT count() AS n FROM failures WHERE class IN ('rate_limit', 'transient')"),
    ).toEqual([{ n: 3 }]);
    expect(await rows('WITH v AS (SELECT 1 AS x) SELECT x FROM v WHERE x IN v')).toEqual([{ x: 1 }]);
  });

  it('the parameterized views first_hand_failures(from, to) and dashboard_workflows(…)', async () => {
    expect(
      await rows(
        `SELECT class, count() AS n FROM first_hand_failures(${range}) GROUP BY class ORDER BY class`,
      ),
    ).toEqual(Object.entries(SEEDED.failuresByClass).map(([c, n]) => ({ class: c, n })));
    expect(await rows(`SELECT count() AS n FROM dashboard_workflows(${range}, service = '')`)).toEqual([
      { n: expect.any(Number) },
    ]);
  });

  it('{name:Type} parameters, a trailing semicolon and comments, a parenthesised SELECT', async () => {
    expect(
      await rows(
        'SELECT count() AS n FROM failures WHERE class = {c:String} AND Timestamp >= {from:DateTime}',
        {
          c: 'rate_limit',
          from: SEEDED.from,
        },
      ),
    ).toEqual([{ n: 2 }]);
    expect(await rows('-- how many?\nSELECT count() AS n /* all */ FROM failures; -- done\n')).toEqual([
      { n: 4 },
    ]);
    expect(await rows('(SELECT 1 AS x) UNION ALL (SELECT 2)')).toEqual([{ x: 1 }, { x: 2 }]);
  });
});

describe('EXPLAIN, SHOW, DESCRIBE and the harmless system tables', () => {
  it('EXPLAIN of a SELECT (plan, AST, syntax, pipeline)', async () => {
    for (const kind of ['', 'PLAN', 'AST', 'SYNTAX', 'PIPELINE', 'ESTIMATE', 'QUERY TREE']) {
      const r = await store.runReadOnly(`EXPLAIN ${kind} SELECT class, count() FROM failures GROUP BY class`);
      expect(r.rows.length, kind).toBeGreaterThan(0);
    }
  });

  it("SHOW TABLES lists Faultline's tables; SHOW CREATE TABLE and DESCRIBE read one", async () => {
    const tables = (await rows<{ name: string }>('SHOW TABLES')).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining(['calls_1m', 'failures', 'otel_traces', 'first_hand_failures']),
    );
    expect(await rows("SHOW TABLES FROM default LIKE 'failure%' LIMIT 2")).toEqual([
      { name: 'failure_codes_1m' },
      { name: 'failure_codes_1m_mv' },
    ]);
    const [create] = await rows<{ statement: string }>('SHOW CREATE TABLE failures');
    expect(create?.statement).toMatch(/^CREATE TABLE default\.failures/);
    expect((await rows<{ statement: string }>('SHOW CREATE VIEW first_hand_failures'))[0]?.statement).toMatch(
      /CREATE VIEW default\.first_hand_failures/,
    );
    const columns = (await rows<{ name: string }>('DESCRIBE TABLE failures')).map((r) => r.name);
    expect(columns).toEqual(
      expect.arrayContaining([
        'class',
        'source',
        'code',
        'message',
        'retryable',
        'retry_after',
        'correlation_id',
        'raw',
      ]),
    );
    expect(await rows('DESC (SELECT 1 AS one)')).toMatchObject([{ name: 'one', type: 'UInt8' }]);
  });

  it('system.one, system.numbers, system.functions and numbers(), values(), generate_series()', async () => {
    expect(await rows('SELECT dummy FROM system.one')).toEqual([{ dummy: 0 }]);
    expect(await rows('SELECT number FROM system.numbers LIMIT 2')).toEqual([{ number: 0 }, { number: 1 }]);
    expect(await rows("SELECT name FROM system.functions WHERE name = 'quantileExact'")).toEqual([
      { name: 'quantileExact' },
    ]);
    expect(await rows('SELECT sum(number) AS s FROM numbers(10)')).toEqual([{ s: 45 }]);
    expect(await rows("SELECT x FROM values('x UInt8', 1, 2)")).toEqual([{ x: 1 }, { x: 2 }]);
    expect(await rows('SELECT count() AS n FROM generate_series(1, 5)')).toEqual([{ n: 5 }]);
  });
});

describe('named queries', () => {
  const SAMPLE: Record<string, unknown> = {
    DateTime: SEEDED.from,
    'DateTime64(3)': SEEDED.from,
    String: '',
    Bool: false,
    Float64: 0.995,
    UInt16: 1,
    UInt32: 1,
    // The burn windows of the budget queries (seconds).
    'Array(UInt32)': [300, 3600],
    // A list of names (the request's endpoints, the fields that must be empty).
    'Array(String)': [''],
    UInt8: 0,
    // A tri-state filter (-1 = either, 0, 1): the Workflows list's failed and steps.
    Int8: -1,
    Int32: -1,
  };

  it('every sql/queries file passes the console as written (it offers them to copy and adapt)', async () => {
    const dir = join(resolveSqlDir(), 'queries');
    const failed: string[] = [];
    for (const q of listNamedQueries()) {
      const sql = readFileSync(join(dir, `${q.name}.sql`), 'utf8');
      const params = Object.fromEntries(q.params.map((p) => [p.name, SAMPLE[p.type]]));
      await store.runReadOnly(sql, params).catch((err: Error) => failed.push(`${q.name}: ${err.message}`));
    }
    expect(failed).toEqual([]);
  });

  it('store.runNamed keeps working beside the console', async () => {
    const { rows: top } = await store.runNamed('top_failure_classes', {
      from: SEEDED.from,
      to: SEEDED.to,
      service: '',
    });
    expect(top.length).toBeGreaterThan(0);
  });
});
