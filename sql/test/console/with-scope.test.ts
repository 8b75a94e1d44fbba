import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleRefusal } from '../../src/console/console-refusal.js';
import type { Store } from '../../src/types.js';
import { type ConsoleStore, openConsoleStore } from './helpers/console-store.js';

// A name in FROM that is not a WITH where ClickHouse reads it is a table of the current database,
// and there chDB falls back to a file of that name (`SELECT * FROM '/etc/passwd'` reads the file).
// So the console lets a WITH name pass only where ClickHouse reads it as the WITH, and pairs each
// WITH body with its name by the body, not by where EXPLAIN AST happens to print it.
let cs: ConsoleStore;
let store: Store;

beforeAll(async () => {
  cs = await openConsoleStore('with-scope');
  store = cs.store;
});

afterAll(async () => {
  await cs?.close();
});

const rows = async (sql: string) => (await store.runReadOnly(sql)).rows;

async function refused(sql: string, reason: RegExp): Promise<void> {
  const err = await store.runReadOnly(sql).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, sql).toBeInstanceOf(ConsoleRefusal);
  expect((err as ConsoleRefusal).reason, sql).toMatch(reason);
}

/** The store's writer session, unrestricted: shows what ClickHouse itself does with the text. */
async function unrestricted(sql: string): Promise<string> {
  return (await store.client.query({ query: sql, format: 'TabSeparated' })).text();
}

describe('names that ClickHouse would read as a file', () => {
  it("FROM '/etc/passwd' and a WITH that does not cover its own body", async () => {
    expect(Number(await unrestricted("SELECT count() FROM '/etc/passwd'"))).toBeGreaterThan(1);
    await refused("SELECT * FROM '/etc/passwd'", /\/etc\/passwd is not one of Faultline's tables/);
    const selfReference =
      'WITH `/etc/passwd` AS (SELECT count() AS n FROM `/etc/passwd`) SELECT n FROM `/etc/passwd`';
    expect(Number(await unrestricted(selfReference))).toBeGreaterThan(1);
    await refused(selfReference, /\/etc\/passwd is not one of Faultline's tables/);
  });

  it("a UNION member with a WITH of its own does not get the first member's", async () => {
    const sql =
      'WITH `/etc/passwd` AS (SELECT 1) SELECT 2 UNION ALL (WITH 1 AS z SELECT count() FROM `/etc/passwd`)';
    expect(await unrestricted(sql)).not.toBe('2\n1\n');
    await refused(sql, /\/etc\/passwd is not one of Faultline's tables/);
  });

  it('WITH bodies printed out of order (LIMIT … OFFSET) are paired by body', async () => {
    // EXPLAIN AST prints OFFSET before LIMIT: pairing by position would swap a and b here.
    await refused(
      'SELECT number FROM numbers(10) LIMIT (WITH a AS (SELECT 1 AS x) SELECT count() FROM b) OFFSET (WITH b AS (SELECT 2 AS x) SELECT count() FROM a)',
      /^[ab] is not one of Faultline's tables/,
    );
    await refused(
      'SELECT number FROM numbers(10) LIMIT (WITH a AS (SELECT 1 AS x) SELECT count() FROM b) OFFSET (WITH b AS (SELECT 1 AS x) SELECT count() FROM a)',
      /cannot tell which names this statement binds/,
    );
    expect(
      await rows(
        'SELECT number FROM numbers(10) LIMIT (WITH a AS (SELECT 2 AS x) SELECT x FROM a) OFFSET (WITH b AS (SELECT 3 AS x) SELECT x FROM b)',
      ),
    ).toEqual([{ number: 3 }, { number: 4 }]);
  });

  it('a WITH is not seen outside its SELECT, nor by the bodies before it', async () => {
    await refused(
      'SELECT * FROM (WITH x AS (SELECT 1 AS v) SELECT v FROM x) AS q, x',
      /x is not one of Faultline's tables/,
    );
    await refused(
      'WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a',
      /b is not one of Faultline's tables/,
    );
  });
});

describe('WITH as incident review writes it', () => {
  it('later bodies see earlier ones; subqueries see the outer WITH; unions share a single WITH', async () => {
    expect(await rows('WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b')).toEqual([
      { y: 2 },
    ]);
    expect(
      await rows('WITH a AS (SELECT 5 AS x) SELECT (SELECT x FROM a) AS v, 5 IN (SELECT x FROM a) AS i'),
    ).toEqual([{ v: 5, i: 1 }]);
    expect(
      await rows(
        'WITH c AS (SELECT 1 AS x) SELECT x FROM c UNION ALL (SELECT x FROM c UNION ALL SELECT x FROM c)',
      ),
    ).toHaveLength(3);
    expect(await rows('SELECT v FROM (WITH x AS (SELECT 1 AS v) SELECT v FROM x)')).toEqual([{ v: 1 }]);
  });

  it('column lists, MATERIALIZED, quoted names, INTERPOLATE beside a WITH', async () => {
    expect(await rows('WITH t (a, b) AS (SELECT 1, 2) SELECT a + b AS s FROM t')).toEqual([{ s: 3 }]);
    expect(await rows('WITH x AS MATERIALIZED (SELECT 1 AS v) SELECT v FROM x')).toEqual([{ v: 1 }]);
    // A recursive WITH reads itself in its own body: refused, like any body reading its own name.
    await refused(
      'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT count() FROM r',
      /r is not one of Faultline's tables/,
    );
    expect(await rows('WITH "my-rows" AS (SELECT 7 AS v) SELECT v FROM "my-rows"')).toEqual([{ v: 7 }]);
    // EXPLAIN AST prints names unquoted: one with a space cannot be told from a name and more.
    await refused('WITH "my rows" AS (SELECT 7 AS v) SELECT v FROM "my rows"', /cannot read the name/);
    expect(
      await rows(`WITH src AS (SELECT number AS n, number * 10 AS y FROM numbers(3))
        SELECT n, y FROM src ORDER BY n WITH FILL TO 4 INTERPOLATE (y AS (y + 1))`),
    ).toEqual([
      { n: 0, y: 0 },
      { n: 1, y: 10 },
      { n: 2, y: 20 },
      { n: 3, y: 21 },
    ]);
  });
});
