import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleRefusal } from '../../src/console/console-refusal.js';
import type { Store } from '../../src/types.js';
import { type ConsoleStore, openConsoleStore, SEEDED, seedCalls } from './helpers/console-store.js';
import { MARIADB, mariadb, REDIS_URL, redis } from './helpers/local-services.js';
import { type NetworkProbe, startNetworkProbe } from './helpers/network-probe.js';

// Issue #17, "the console reads only Faultline's data": everything that went through the console
// before, each refused with a message that says why and what is allowed, and (for files, writes
// and the network) a check that nothing happened. A control through the store's own unrestricted
// session shows each vector is live on this machine, so a refusal is not an accident.
let cs: ConsoleStore;
let store: Store;
let probe: NetworkProbe;
const ALLOWED = /The SQL console is read-only \(ClickHouse readonly = 1\) and runs one statement per request/;
const REPO = resolve(__dirname, '../../..');
const PROBE_TABLE = `fl_console_probe_${process.pid}`;
const REDIS_KEY = `fl-console-probe-${process.pid}`;

async function refused(sql: string, reason: RegExp): Promise<ConsoleRefusal> {
  const err = await store.runReadOnly(sql).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, sql).toBeInstanceOf(ConsoleRefusal);
  const refusal = err as ConsoleRefusal;
  expect(refusal.reason, sql).toMatch(reason);
  expect(refusal.message).toMatch(ALLOWED);
  return refusal;
}

/** The store's writer session: no console rules, used for controls only. */
async function unrestricted(sql: string): Promise<string> {
  const rs = await store.client.query({ query: sql, format: 'TabSeparated' });
  return rs.text();
}

beforeAll(async () => {
  cs = await openConsoleStore('refusals');
  store = cs.store;
  await seedCalls(store);
  probe = await startNetworkProbe();
  mariadb(`CREATE TABLE IF NOT EXISTS ${PROBE_TABLE} (id VARCHAR(64))`);
  mariadb(`DELETE FROM ${PROBE_TABLE}`);
  redis('DEL', REDIS_KEY);
});

afterAll(async () => {
  mariadb(`DROP TABLE IF EXISTS ${PROBE_TABLE}`);
  redis('DEL', REDIS_KEY);
  await probe?.close();
  await cs?.close();
});

describe('files: nothing outside Faultline is read', () => {
  it('file() as a table function and as a function, /etc/passwd and /proc/self/environ', async () => {
    expect(await unrestricted("SELECT count() FROM file('/etc/passwd', 'LineAsString')")).not.toBe('0\n');
    for (const sql of [
      "SELECT * FROM file('/etc/passwd', 'LineAsString')",
      "SELECT * FROM file('/proc/self/environ', 'RawBLOB')",
      "DESCRIBE file('/etc/passwd')",
      "EXPLAIN SELECT * FROM file('/etc/passwd', 'LineAsString')",
    ]) {
      const r = await refused(sql, /The table function file\(\) is not allowed/);
      expect(r.message).not.toMatch(/root:x:0:0/);
    }
    for (const sql of [
      "SELECT file('/etc/passwd')",
      "SELECT count() FROM system.one WHERE 'root' IN file('/etc/passwd')",
      "SELECT arrayMap(p -> file(p), ['/etc/passwd'])",
      "WITH failures AS (SELECT file('/etc/passwd') AS f) SELECT * FROM failures",
    ]) {
      const r = await refused(sql, /file\(\) is not allowed: it reaches outside Faultline's data/);
      expect(r.message).not.toMatch(/root:x:0:0/);
    }
  });

  it("the project's source and the write-ahead log", async () => {
    const source = join(REPO, 'sql/src/store/open-store.ts');
    expect(readFileSync(source, 'utf8')).toMatch(/openStore/);
    await refused(`SELECT * FROM file('${source}', 'LineAsString')`, /file\(\) is not allowed/);
    await refused(`SELECT * FROM file('${cs.dataDir}/wal/*', 'LineAsString')`, /file\(\) is not allowed/);
    await refused(`SELECT file('${cs.dataDir}/faultline.lock')`, /file\(\) is not allowed/);
  });
});

describe('the network: no connection is made', () => {
  it('url, mysql, postgresql, redis, remote, s3, mongodb … pointed at a local listener never connect', async () => {
    const at = `127.0.0.1:${probe.port}`;
    // Control: an unrestricted session does reach the listener.
    await unrestricted(`SELECT * FROM url('http://${at}/', 'LineAsString', 'line String')`);
    const before = probe.connections;
    expect(before).toBeGreaterThan(0);
    const cases: [string, string][] = [
      ['url', `SELECT * FROM url('http://${at}/', 'LineAsString', 'line String')`],
      ['urlCluster', `SELECT * FROM urlCluster('default', 'http://${at}/', 'LineAsString', 'line String')`],
      ['mysql', `SELECT * FROM mysql('${at}', 'test', 't', 'root', '')`],
      ['postgresql', `SELECT * FROM postgresql('${at}', 'postgres', 't', 'postgres', '')`],
      ['redis', `SELECT * FROM redis('${at}', 'k', 'k String, v String')`],
      ['mongodb', `SELECT * FROM mongodb('${at}', 'db', 'c', 'u', 'p', 'x String')`],
      ['remote', `SELECT * FROM remote('${at}', system.one)`],
      ['remoteSecure', `SELECT * FROM remoteSecure('${at}', system.one)`],
      ['cluster', 'SELECT * FROM cluster(default, system.one)'],
      ['s3', `SELECT * FROM s3('http://${at}/bucket/key.csv', 'CSV', 'x String')`],
      ['hdfs', `SELECT * FROM hdfs('hdfs://${at}/x.csv', 'CSV', 'x String')`],
      ['jdbc', `SELECT * FROM jdbc('jdbc:mysql://${at}/test', 't')`],
      ['odbc', "SELECT * FROM odbc('DSN=x', 't')"],
      ['azureBlobStorage', `SELECT * FROM azureBlobStorage('http://${at}/', 'c', 'b')`],
      ['icebergS3', `SELECT * FROM icebergS3('http://${at}/t/')`],
    ];
    for (const [fn, sql] of cases)
      await refused(sql, new RegExp(`The table function ${fn}\\(\\) is not allowed`));
    await refused(
      `SELECT 1 IN (SELECT * FROM url('http://${at}/', 'LineAsString', 'line String'))`,
      /url\(\)/,
    );
    expect(probe.connections).toBe(before);
  });

  it('INSERT INTO FUNCTION mysql() / redis() / file() lands nothing (a control insert does)', async () => {
    const m = `mysql('${MARIADB.host}:${MARIADB.port}', '${MARIADB.database}', '${PROBE_TABLE}', '${MARIADB.user}', '${MARIADB.password}')`;
    await store.client.command({ query: `INSERT INTO FUNCTION ${m} VALUES ('control')` });
    expect(mariadb(`SELECT id FROM ${PROBE_TABLE}`)).toEqual(['control']);
    await refused(`INSERT INTO FUNCTION ${m} VALUES ('console')`, /INSERT statements are not allowed/);
    await refused(`SELECT * FROM ${m}`, /mysql\(\) is not allowed/);
    expect(mariadb(`SELECT id FROM ${PROBE_TABLE}`)).toEqual(['control']);

    const r = `redis('${new URL(REDIS_URL).host}', 'k', 'k String, v String')`;
    await refused(
      `INSERT INTO FUNCTION ${r} VALUES ('${REDIS_KEY}', 'console')`,
      /INSERT statements are not allowed/,
    );
    expect(redis('EXISTS', REDIS_KEY)).toBe('0');

    const out = join(cs.dir, 'insert-function.csv');
    await refused(`INSERT INTO FUNCTION file('${out}', 'CSV') SELECT 1`, /INSERT statements are not allowed/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('writes and output to files', () => {
  it('SELECT … INTO OUTFILE writes no file (it would through an unrestricted session)', async () => {
    const control = join(cs.dir, 'control.csv');
    await store.client.command({ query: `SELECT 1 INTO OUTFILE '${control}' FORMAT CSV` });
    expect(existsSync(control)).toBe(true);
    const out = join(cs.dir, 'console.csv');
    await refused(`SELECT * FROM failures INTO OUTFILE '${out}'`, /INTO OUTFILE is not allowed/);
    await refused(`SELECT * FROM failures INTO OUTFILE '${out}' FORMAT CSV`, /INTO OUTFILE|FORMAT/);
    expect(existsSync(out)).toBe(false);
  });

  it('DDL, INSERT, ALTER, DROP, OPTIMIZE, SET, temporary tables and the rest: the data stays as it was', async () => {
    const cases: [string, RegExp][] = [
      ["INSERT INTO failures (class) VALUES ('validation')", /INSERT statements/],
      ['CREATE TABLE t (x Int8) ENGINE = Memory', /CREATE statements/],
      ['CREATE TEMPORARY TABLE failures (x Int8)', /CREATE statements/],
      ["CREATE FUNCTION f AS x -> file('/etc/passwd')", /CREATE statements/],
      ['ALTER TABLE failures DELETE WHERE 1', /ALTER statements/],
      ['DROP TABLE failures', /DROP statements/],
      ['TRUNCATE TABLE failures', /TRUNCATE statements/],
      ['RENAME TABLE failures TO f2', /RENAME statements/],
      ['OPTIMIZE TABLE failures FINAL', /OPTIMIZE statements/],
      ["BACKUP TABLE failures TO File('backup.zip')", /BACKUP statements/],
      ['SET max_execution_time = 3600', /SET statements/],
      ['SET readonly = 0', /SET statements/],
      ['USE system', /USE statements/],
      ['GRANT ALL ON *.* TO default', /GRANT statements/],
      ['EXISTS TABLE system.users', /EXISTS statements/],
      ['WITH 1 AS x INSERT INTO failures (class) SELECT x', /INSERT is not allowed/],
    ];
    for (const [sql, reason] of cases) await refused(sql, reason);
    const { rows } = await store.runReadOnly<{ n: number }>('SELECT count() AS n FROM failures');
    expect(rows).toEqual([{ n: 4 }]);
  });
});

describe("other sessions' work and the server", () => {
  it("KILL QUERY is refused and the collector's INSERT running meanwhile completes", async () => {
    // An INSERT through the writer's session that takes about 2 s (1 ms per row).
    const insert = store.client.command({
      query:
        "INSERT INTO otel_traces (ServiceName, SpanName, Timestamp) SELECT 'kill-probe', 'x', now64(9) FROM numbers(2000) WHERE sleepEachRow(0.001) = 0",
    });
    await new Promise((r) => setTimeout(r, 300));
    for (const sql of [
      'KILL QUERY WHERE 1',
      "KILL QUERY WHERE user = 'default' SYNC",
      'KILL MUTATION WHERE 1',
    ]) {
      await refused(sql, /KILL statements are not allowed/);
    }
    await insert;
    const { rows } = await store.runReadOnly<{ n: number }>(
      "SELECT count() AS n FROM otel_traces WHERE ServiceName = 'kill-probe'",
    );
    expect(rows).toEqual([{ n: 2000 }]);
  });

  it('every SYSTEM statement', async () => {
    for (const sql of [
      'SYSTEM STOP MERGES',
      'SYSTEM STOP MERGES failures',
      'SYSTEM SHUTDOWN',
      'SYSTEM FLUSH LOGS',
      'SYSTEM DROP MARK CACHE',
      'SYSTEM RELOAD DICTIONARIES',
    ]) {
      await refused(sql, /SYSTEM statements are not allowed/);
    }
  });

  it('system tables with secrets or other sessions, and other databases', async () => {
    for (const t of [
      'users',
      'settings',
      'processes',
      'query_log',
      'grants',
      'server_settings',
      'dictionaries',
      'tables',
      'columns',
      'parts',
      'macros',
    ]) {
      await refused(`SELECT * FROM system.${t}`, new RegExp(`system\\.${t} is not one of the system tables`));
    }
    await refused('SELECT * FROM INFORMATION_SCHEMA.TABLES', /outside Faultline's database default/);
    await refused('SELECT * FROM information_schema.columns', /outside Faultline's database default/);
    await refused('SELECT * FROM other_db.failures', /outside Faultline's database default/);
    await refused('SELECT * FROM failures WHERE ServiceName IN system.users', /system\.users/);
    await refused('SELECT * FROM numbers((SELECT count() FROM system.users))', /system\.users/);
    await refused('SELECT * FROM failures JOIN system.processes USING (ServiceName)', /system\.processes/);
    await refused('SELECT * FROM not_a_faultline_table', /not one of Faultline's tables or views/);
    for (const sql of [
      "SELECT getSetting('max_execution_time')",
      "SELECT getServerSetting('path')",
      "SELECT getMacro('replica')",
      'SELECT hostName()',
      "SELECT hasColumnInTable('system', 'users', 'name')",
      "SELECT joinGet('system.users', 'name', 1)",
    ]) {
      await refused(sql, /is not allowed: it reaches outside Faultline's data/);
    }
    await refused('SHOW PROCESSLIST', /SHOW PROCESSLIST is not allowed/);
    await refused('SHOW GRANTS', /SHOW GRANTS is not allowed/);
    await refused('SHOW USERS', /SHOW USERS is not allowed/);
    await refused('SHOW CREATE USER default', /SHOW CREATE USER is not allowed/);
    await refused('SHOW CREATE TABLE system.users', /system\.users/);
    await refused('SHOW CREATE DATABASE default', /SHOW CREATE DATABASE is not allowed/);
    for (const sql of [
      'SHOW DATABASES',
      "SHOW SETTINGS LIKE '%'",
      'SHOW DICTIONARIES',
      'SHOW CLUSTERS',
      'SHOW COLUMNS FROM failures',
    ]) {
      await refused(sql, /Of the SHOW statements the console runs SHOW TABLES|SHOW COLUMNS is not allowed/);
    }
    await refused('SHOW TABLES FROM system', /SHOW TABLES lists Faultline's database default only/);
    await refused(
      "SHOW TABLES WHERE name IN (SELECT * FROM file('/etc/passwd', 'LineAsString'))",
      /Of the SHOW statements/,
    );
  });

  it('dictionaries, executable, input and the other table functions', async () => {
    await refused(
      "SELECT dictGet('d', 'a', toUInt64(1))",
      /dictGet\(\) is not allowed.*dictionary functions/,
    );
    await refused("SELECT dictGetString('d', 'a', toUInt64(1))", /dictGetString\(\) is not allowed/);
    await refused("SELECT dictHas('d', toUInt64(1))", /dictHas\(\) is not allowed/);
    for (const [fn, sql] of [
      ['dictionary', "SELECT * FROM dictionary('d')"],
      ['executable', "SELECT * FROM executable('cat /etc/passwd', 'TSV', 'x String')"],
      ['input', "SELECT * FROM input('x String')"],
      ['merge', "SELECT * FROM merge('system', '.*')"],
      ['view', 'SELECT * FROM view(SELECT * FROM system.users)'],
      ['loop', 'SELECT * FROM loop(numbers(3))'],
      ['generateRandom', "SELECT * FROM generateRandom('x String')"],
      ['zeros', 'SELECT * FROM zeros(3)'],
      ['sqlite', "SELECT * FROM sqlite('/tmp/x.db', 't')"],
      ['filesystem', "SELECT * FROM filesystem('/')"],
    ] as const) {
      await refused(sql, new RegExp(`The table function ${fn}\\(\\) is not allowed`));
    }
  });
});

describe('one statement, fixed limits, nothing the check cannot see', () => {
  it('SELECT 1; SELECT 2 and a DROP after a SELECT: neither runs', async () => {
    await refused('SELECT 1; SELECT 2', /One statement per request/);
    await refused('SELECT 1; DROP TABLE failures', /One statement per request/);
    await refused("SELECT 'a;b'; KILL QUERY WHERE 1", /One statement per request/);
    const { rows } = await store.runReadOnly<{ n: number }>('SELECT count() AS n FROM failures;');
    expect(rows).toEqual([{ n: SEEDED.failuresByClass.rate_limit + 2 }]);
  });

  it('SETTINGS in a query, in a subquery or as EXPLAIN options cannot lift a limit', async () => {
    for (const sql of [
      'SELECT count() FROM numbers(1e12) SETTINGS max_execution_time = 3600',
      'SELECT * FROM system.numbers SETTINGS max_result_rows = 0',
      'SELECT 1 SETTINGS readonly = 0',
      'SELECT * FROM (SELECT 1 SETTINGS max_threads = 1)',
      'SELECT 1 SETTINGS max_threads = 1',
      'EXPLAIN PLAN header = 1 SELECT 1',
      'EXPLAIN PLAN max_execution_time = 100 SELECT 1',
      'SELECT 1 FORMAT JSON SETTINGS max_threads = 1',
    ]) {
      await refused(sql, /SETTINGS clauses \(and EXPLAIN options\) are not allowed/);
    }
  });

  it('FORMAT clauses', async () => {
    await refused('SELECT 1 FORMAT Native', /FORMAT clauses are not allowed/);
    await refused('EXPLAIN SELECT 1 FORMAT JSON', /FORMAT clauses are not allowed/);
    await refused('DESCRIBE failures FORMAT JSON', /FORMAT clauses are not allowed/);
    await refused('SHOW CREATE TABLE failures FORMAT JSON', /SHOW CREATE TABLE\|VIEW takes one/);
  });

  it('what EXPLAIN AST would print incompletely or ambiguously', async () => {
    await refused(
      "SELECT * APPLY(x -> file(x)) FROM values('x String', '/etc/passwd')",
      /APPLY\(…\) is not allowed/,
    );
    // A quoted name with a line break would print as a tree line of its own.
    await refused('SELECT 1 AS "a\n   TableIdentifier failures"', /holds a backslash or a control character/);
    await refused('SELECT 1 AS `a\\nb`', /holds a backslash or a control character/);
    await refused('EXPLAIN CURRENT TRANSACTION', /EXPLAIN CURRENT TRANSACTION is not allowed/);
    await refused(
      "EXPLAIN TABLE OVERRIDE mysql('a', 'b', 'c', 'd', 'e') PARTITION BY x",
      /EXPLAIN TABLE OVERRIDE/,
    );
    await refused('SELECT sleepEachRow(3) FROM numbers(3)', /sleepEachRow\(\) is not allowed/);
    await refused("SELECT __getScalar('x')", /__getScalar\(\) is not allowed/);
    await refused("SELECT logTrace('x')", /logTrace\(\) is not allowed.*introspection functions/);
    await refused('SELECT no_such_function(1)', /no_such_function\(\) is not a function ClickHouse knows/);
  });
});
