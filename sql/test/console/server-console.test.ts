import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleRefusal } from '../../src/console/console-refusal.js';
import { splitStatements } from '../../src/lexer/split-statements.js';
import { openStore } from '../../src/open-store.js';
import type { Store } from '../../src/types.js';
import { closedPort, type ShimProcess, startShim } from '../support/shim-process.js';
import { SEEDED, seedCalls } from './helpers/console-store.js';
import { MARIADB, mariadb } from './helpers/local-services.js';
import { type NetworkProbe, startNetworkProbe } from './helpers/network-probe.js';

// Against a ClickHouse server (the HTTP shim: chDB in a child process) the console applies the
// same check through the server's own lexer and parser, streams over HTTP, and, when a dedicated
// user is configured, sends its statements as that user. (The shim keeps one session for all
// read-only requests, so per-request isolation is a real server's, not tested here.)
let dir: string;
let shim: ShimProcess;
let store: Store;
let probe: NetworkProbe;
const PROBE_TABLE = `fl_console_server_probe_${process.pid}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-console-server-'));
  shim = await startShim(await closedPort(), join(dir, 'clickhouse'));
  store = await openStore({ url: `http://127.0.0.1:${shim.port}` });
  await seedCalls(store);
  probe = await startNetworkProbe();
  mariadb(`CREATE TABLE IF NOT EXISTS ${PROBE_TABLE} (id VARCHAR(64))`);
  mariadb(`DELETE FROM ${PROBE_TABLE}`);
});

afterAll(async () => {
  mariadb(`DROP TABLE IF EXISTS ${PROBE_TABLE}`);
  await probe?.close();
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(sql: string, reason: RegExp): Promise<void> {
  const err = await store.runReadOnly(sql).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, sql).toBeInstanceOf(ConsoleRefusal);
  expect((err as ConsoleRefusal).reason, sql).toMatch(reason);
}

describe('the same check on a server', () => {
  it('files, the network, writes, KILL, SYSTEM, a second statement, SETTINGS and FORMAT are refused', async () => {
    const out = join(dir, 'out.csv');
    const m = `mysql('${MARIADB.host}:${MARIADB.port}', '${MARIADB.database}', '${PROBE_TABLE}', '${MARIADB.user}', '${MARIADB.password}')`;
    const cases: [string, RegExp][] = [
      ["SELECT * FROM file('/etc/passwd', 'LineAsString')", /file\(\) is not allowed/],
      ["SELECT file('/etc/passwd')", /file\(\) is not allowed/],
      [
        `SELECT * FROM url('http://127.0.0.1:${probe.port}/', 'LineAsString', 'l String')`,
        /url\(\) is not allowed/,
      ],
      [
        `SELECT * FROM postgresql('127.0.0.1:${probe.port}', 'db', 't', 'u', 'p')`,
        /postgresql\(\) is not allowed/,
      ],
      [`INSERT INTO FUNCTION ${m} VALUES ('console')`, /INSERT statements are not allowed/],
      [`SELECT 1 INTO OUTFILE '${out}'`, /INTO OUTFILE is not allowed/],
      ['KILL QUERY WHERE 1', /KILL statements are not allowed/],
      ['SYSTEM STOP MERGES', /SYSTEM statements are not allowed/],
      ['SELECT 1; SELECT 2', /One statement per request/],
      ['SELECT 1 SETTINGS max_execution_time = 3600', /SETTINGS clauses/],
      ['SELECT 1 FORMAT CSV', /FORMAT clauses are not allowed/],
      ['SELECT * FROM system.users', /system\.users is not one of the system tables/],
      ['CREATE TEMPORARY TABLE failures (x Int8)', /CREATE statements are not allowed/],
    ];
    for (const [sql, reason] of cases) await refused(sql, reason);
    expect(probe.connections).toBe(0);
    expect(mariadb(`SELECT id FROM ${PROBE_TABLE}`)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it("Faultline's tables answer with the right rows; EXPLAIN, SHOW and DESCRIBE run", async () => {
    const { rows } = await store.runReadOnly(
      'SELECT class, count() AS n FROM failures GROUP BY class ORDER BY class',
    );
    expect(rows).toEqual(Object.entries(SEEDED.failuresByClass).map(([c, n]) => ({ class: c, n })));
    const calls = await store.runReadOnly(
      'SELECT sum(calls) AS calls FROM calls_1m WHERE ServiceName = {s:String}',
      { s: 'checkout' },
    );
    expect(calls.rows).toEqual([{ calls: SEEDED.callsByService.checkout.calls }]);
    const fh = await store.runReadOnly(
      `SELECT count() AS n FROM first_hand_failures(from = '${SEEDED.from}', to = '${SEEDED.to}')`,
    );
    expect(fh.rows).toEqual([{ n: 4 }]);
    expect((await store.runReadOnly('EXPLAIN SELECT count() FROM failures')).rows.length).toBeGreaterThan(0);
    expect((await store.runReadOnly('SHOW TABLES')).rows).toContainEqual({ name: 'failures' });
    expect((await store.runReadOnly('DESCRIBE failures')).rows).toContainEqual(
      expect.objectContaining({ name: 'class' }),
    );
  });

  it('a 10M-row result stops at the row cap', async () => {
    const r = await store.runReadOnly('SELECT number, toString(number) AS s FROM numbers(10000000)');
    expect(r.rows).toHaveLength(10_000);
    expect(r.truncated).toBe(true);
  });
});

describe('a dedicated console user', () => {
  let proxy: Server;
  let consoleStore: Store;
  const seen: { user: string; console: boolean }[] = [];

  beforeAll(async () => {
    // Between the store and the shim: records who each request logs in as, and whether it is a
    // console statement (those carry the console's log_comment tag).
    proxy = createServer((req, res) => {
      const auth = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64');
      const url = new URL(req.url ?? '/', 'http://proxy');
      seen.push({
        user: auth.toString().split(':')[0] ?? '',
        console: (url.searchParams.get('log_comment') ?? '').startsWith('faultline-console:'),
      });
      const upstream = request(
        { host: '127.0.0.1', port: shim.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 500, r.headers);
          r.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    process.env.FAULTLINE_CLICKHOUSE_CONSOLE_USER = 'faultline_console';
    process.env.FAULTLINE_CLICKHOUSE_CONSOLE_PASSWORD = 'console-secret';
    try {
      const { port } = proxy.address() as { port: number };
      consoleStore = await openStore({ url: `http://127.0.0.1:${port}`, username: 'faultline_writer' });
    } finally {
      delete process.env.FAULTLINE_CLICKHOUSE_CONSOLE_USER;
      delete process.env.FAULTLINE_CLICKHOUSE_CONSOLE_PASSWORD;
    }
  });

  afterAll(async () => {
    await consoleStore?.close();
    proxy?.close();
  });

  it("console statements log in as the console user; the store's own work as its user", async () => {
    seen.length = 0;
    expect((await consoleStore.runReadOnly('SELECT count() AS n FROM failures')).rows).toEqual([{ n: 4 }]);
    await consoleStore.runNamed('top_failure_classes', { from: SEEDED.from, to: SEEDED.to, service: '' });
    const consoleUsers = new Set(seen.filter((s) => s.console).map((s) => s.user));
    const otherUsers = new Set(seen.filter((s) => !s.console).map((s) => s.user));
    expect(consoleUsers).toEqual(new Set(['faultline_console']));
    // The named query and the catalogue read (Faultline's own SQL) use the store's user.
    expect(otherUsers).toEqual(new Set(['faultline_writer']));
  });

  it("the README's SQL for the user parses with ClickHouse's parser", async () => {
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### A dedicated read-only user'));
    const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const statements = splitStatements(block!);
    expect(statements.map((s) => s.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'CREATE SETTINGS',
      'CREATE USER',
      'GRANT SELECT',
    ]);
    for (const q of statements) {
      const rs = await store.client.query({
        query: 'SELECT formatQuery({q:String}) AS f',
        query_params: { q },
        format: 'JSONEachRow',
      });
      expect(((await rs.json<{ f: string }>())[0]?.f ?? '').length).toBeGreaterThan(0);
    }
  });
});
