import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForInserted } from '../../src/client/wait-for-inserted.js';
import { exportSpans, makeSpans } from '../receiver/helpers/make-spans.js';
import { ROOT, runCli, type StartedPart, startPart } from '../server-mode/start-part.js';

// Issue 30, "First run": the operator's first minutes, against a real `npm start` (scripts/start.mjs
// on free ports over its own FAULTLINE_DATA_DIR) with the CLI and the demo as child processes.
// - The data directory's lock records where the running process answers, and `faultline sql`,
//   `migrate` and `doctor` given only FAULTLINE_DATA_DIR (or --data-dir) find it through the lock
//   and talk to it over HTTP; their messages name only flags they take and never advise a kill.
// - `npm run demo -- --otlp` takes the traces URL `npm start` prints (its spans are then stored),
//   refuses anything else, and its check that the spans landed fails (exit 1) against a collector
//   that takes exports and stores nothing, one that refuses its token, and where nothing listens.
// - The demo's deadlock survives either victim PostgreSQL picks (deadlock-victim-child.mjs).

const dir = mkdtempSync(join(tmpdir(), 'fl-first-run-'));
const dataDir = join(dir, 'data');
const FLAGS = {
  sql: ['--name', '--param', '--format', '--url', '--data-dir', '--list', '--help'],
  migrate: ['--apply', '--backfill', '--print', '--data-dir', '--help'],
  doctor: ['--collector-url', '--data-dir', '--json', '--help'],
};

/** The environment of a shell with none of this machine's collector settings in it. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^OTEL_|^FAULTLINE_/.test(name)) delete env[name];
  return { ...env, ...extra };
}

/** The flags a message suggests (`--x`) that the command does not take. */
function foreignFlags(command: keyof typeof FLAGS, text: string): string[] {
  return [...new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? [])].filter(
    (f) => !FLAGS[command].includes(f),
  );
}

/** Runs a script as a child without blocking this process (the stub collector lives here). */
function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 90_000,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr!.on('data', (d) => {
      stderr += String(d);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (status) => {
      clearTimeout(timer);
      ok({ status, stdout, stderr });
    });
  });
}

const demo = (args: string[], env: NodeJS.ProcessEnv) => runNode(['scripts/demo.mjs', ...args], env);

/**
 * A stand-in collector: `drop` answers every export 200 and stores nothing (its /healthz counters
 * never move), `refuse` answers 401 as a collector with another ingest token does, `foreign`
 * takes exports but has no Faultline /healthz.
 */
async function stubCollector(
  mode: 'drop' | 'refuse' | 'foreign',
): Promise<{ url: string; exports: () => number; close(): Promise<void> }> {
  let exports = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        exports++;
        if (mode === 'refuse')
          return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad token"}');
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
      if (req.url === '/healthz' && mode !== 'foreign') {
        const ingest = { startedAt: 1, accepted: 0, stored: 0, pending: 0, refused: { byStatus: {} } };
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'ok', problems: [], ingest }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

let app: StartedPart;
let otlpTraces = '';
let dashboard = '';
beforeAll(async () => {
  app = await startPart(
    ['--port', '0', '--otlp-port', '0'],
    cleanEnv({ FAULTLINE_DATA_DIR: dataDir }),
    // Printed after the lock records the URLs.
    /^faultline: store embedded \((.+)\)$/,
    (line) => {
      otlpTraces = /^faultline: otlp (\S+)$/.exec(line)?.[1] ?? otlpTraces;
      dashboard = /^faultline: dashboard (\S+)$/.exec(line)?.[1] ?? dashboard;
    },
  );
  const base = otlpTraces.replace(/\/v1\/traces$/, '');
  const exporter = new OTLPTraceExporter({ url: otlpTraces });
  const r = await exportSpans(
    exporter,
    makeSpans('first-run-cli', [{ name: 'GET /a' }, { name: 'GET /b' }, { name: 'GET /c' }]),
  );
  expect(r.ok, String(r.error)).toBe(true);
  await exporter.shutdown();
  await waitForInserted(base);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the running instance of FAULTLINE_DATA_DIR', () => {
  it("records its URLs in the data directory's lock", () => {
    const lock = JSON.parse(readFileSync(join(dataDir, 'faultline.lock'), 'utf8'));
    expect(lock.endpoints).toMatchObject({
      otlp: otlpTraces.replace(/\/v1\/traces$/, ''),
      dashboard,
      sql: `${dashboard}/api/sql`,
    });
    expect(lock.endpoints.otlpGrpc).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('faultline sql finds it from FAULTLINE_DATA_DIR alone (or --data-dir) and returns its rows', () => {
    const query =
      "SELECT SpanName AS name FROM otel_traces WHERE ServiceName = 'first-run-cli' AND SpanKind = 'Client' ORDER BY name";
    // No --url, no FAULTLINE_URL, no port: only the data directory leads to the process.
    const byEnv = runCli(['sql', query, '--format', 'csv'], cleanEnv({ FAULTLINE_DATA_DIR: dataDir }));
    expect(byEnv.status, byEnv.stderr).toBe(0);
    expect(byEnv.stdout.trim().split('\r\n')).toEqual(['name', 'GET /a', 'GET /b', 'GET /c']);
    const byFlag = runCli(['sql', '--data-dir', dataDir, query, '--format', 'json'], cleanEnv());
    expect(byFlag.status, byFlag.stderr).toBe(0);
    expect(byFlag.stdout.trim().split('\n')).toHaveLength(3);
    // The flag names the directory even when FAULTLINE_URL points elsewhere.
    const flagWins = runCli(
      ['sql', '--data-dir', dataDir, 'SELECT 1 AS one', '--format', 'json'],
      cleanEnv({ FAULTLINE_URL: 'http://127.0.0.1:9' }),
    );
    expect(flagWins.stdout.trim()).toBe('{"one":1}');
  });

  it('faultline sql on a directory nothing runs on says what to do, with flags it takes', () => {
    const r = runCli(['sql', 'SELECT 1'], cleanEnv({ FAULTLINE_DATA_DIR: join(dir, 'nothing-here') }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`nothing runs on the data directory ${join(dir, 'nothing-here')}`);
    expect(foreignFlags('sql', r.stderr)).toEqual([]);
    expect(r.stderr).not.toMatch(/\bkill\b/i);
  });

  it('faultline migrate reports the schema the running process applied, and --apply opens nothing', () => {
    const env = cleanEnv({ FAULTLINE_DATA_DIR: dataDir });
    const dry = runCli(['migrate'], env);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /^schema: version \d+ in the data directory .+, held by the running Faultline of /m,
    );
    expect(dry.stdout).toContain(`dashboard ${dashboard}`);
    const apply = runCli(['migrate', '--apply', '--data-dir', dataDir], cleanEnv());
    expect(apply.status, apply.stderr).toBe(0);
    for (const r of [dry, apply]) {
      const all = r.stdout + r.stderr;
      expect(all).not.toMatch(/\bkill\b|Stop that process/i);
      expect(all).not.toContain('Failed to create connection');
      expect(foreignFlags('migrate', all)).toEqual([]);
    }
    const bad = runCli(['migrate', '--data-dir'], cleanEnv());
    expect(bad.status).toBe(2);
  });

  it('faultline doctor asks the process at the URL its lock recorded; a wrong --collector-url is named, not the process', () => {
    const ok = runCli(['doctor', '--json'], cleanEnv({ FAULTLINE_DATA_DIR: dataDir }));
    const checks = Object.fromEntries(
      (JSON.parse(ok.stdout) as { name: string; verdict: string; detail: string }[]).map((c) => [c.name, c]),
    );
    expect(checks.connectivity).toMatchObject({ verdict: 'ok' });
    expect(checks.connectivity!.detail).toContain('held by the running Faultline');
    expect(checks['schema version']).toMatchObject({ verdict: 'ok' });
    expect(checks['writer backlog']).toMatchObject({ verdict: 'ok' });
    expect(ok.status).toBe(0);

    const wrong = runCli(
      ['doctor', '--collector-url', 'http://127.0.0.1:9/v1/traces'],
      cleanEnv({ FAULTLINE_DATA_DIR: dataDir }),
    );
    expect(wrong.status).toBe(1);
    const base = otlpTraces.replace(/\/v1\/traces$/, '');
    expect(wrong.stdout).toMatch(
      /✓ ok +connectivity +the embedded data directory .* is held by the running Faultline/,
    );
    expect(wrong.stdout).toContain(`no collector answers at http://127.0.0.1:9/healthz`);
    expect(wrong.stdout).toContain(`pass --collector-url ${base}, or leave --collector-url out`);
    expect(wrong.stdout + wrong.stderr).not.toMatch(/\bkill\b|Stop that process/i);
    expect(foreignFlags('doctor', wrong.stdout + wrong.stderr)).toEqual([]);
    expect(runCli(['doctor', '--collector-url', 'localhost:4318'], cleanEnv()).status).toBe(2);
  });
});

describe('npm run demo', () => {
  it('takes the traces URL npm start prints, and its spans are stored', async () => {
    const r = await demo(
      ['--duration', '1.5', '--rate', '4', '--otlp', otlpTraces, '--quiet'],
      cleanEnv({ OTEL_BSP_SCHEDULE_DELAY: '200' }),
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const run = /demo: sent (\d+) workflows \(correlation ids (demo-[a-z0-9]+)-1/.exec(r.stdout);
    expect(run, r.stdout).not.toBeNull();
    expect(r.stdout).toMatch(/demo: the collector stored \d+ spans during the run/);
    expect(r.stdout).toContain('demo: expected totals:');
    // The store has this run's workflows, read back through the instance's console.
    const q = runCli(
      [
        'sql',
        `SELECT uniqExact(SpanAttributes['faultline.correlation_id']) AS workflows FROM otel_traces WHERE ServiceName = 'checkout' AND startsWith(SpanAttributes['faultline.correlation_id'], '${run![2]}-')`,
        '--format',
        'json',
      ],
      cleanEnv({ FAULTLINE_DATA_DIR: dataDir }),
    );
    expect(q.status, q.stderr).toBe(0);
    expect(Number(JSON.parse(q.stdout.trim()).workflows)).toBe(Number(run![1]));
  });

  it('refuses every bad flag before it starts, saying what to pass', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--otlp', 'localhost:4318'],
        /--otlp localhost:4318 is not an http\(s\) URL.*pass the collector's base URL such as http:\/\/127\.0\.0\.1:4318, or the traces URL `npm start` prints/,
      ],
      [['--otlp', 'http://127.0.0.1:4318/v1/metrics'], /\/v1\/metrics is not where OTLP traces go/],
      [['--otlp', 'http://127.0.0.1:4318/collector'], /\/collector is not where OTLP traces go/],
      [['--otlp', 'http://user:pw@127.0.0.1:4318'], /credentials do not go in the URL/],
      [['--otlp', 'not a url'], /is not a URL: pass the collector's base URL/],
      [['--rate', '0'], /--rate 0 is not a number of workflows per second/],
      [['--rate', '1e9'], /--rate 1e9 is not/],
      [['--duration', 'abc'], /--duration abc is not a number of seconds/],
      [['--duration', ''], /--duration {2}is not/],
      [['--bogus'], /Unknown option '--bogus'/],
      [['extra'], /Unexpected argument 'extra'/],
      [['--otlp'], /argument missing/],
    ];
    const results = await Promise.all(cases.map(([args]) => demo(args, cleanEnv())));
    results.forEach((r, i) => {
      expect(r.status, `${cases[i]![0].join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
      expect(r.stderr).toContain('Usage: npm run demo --');
    });
    // A bad URL in the environment is named as such.
    const env = await demo(
      ['--duration', '1'],
      cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/v1/logs' }),
    );
    expect(env.status).toBe(2);
    expect(env.stderr).toContain('OTEL_EXPORTER_OTLP_ENDPOINT http://127.0.0.1:4318/v1/logs');
  });

  it('exits 1 when its spans did not land: a collector that stores nothing, a refused token, nothing listening', async () => {
    const drop = await stubCollector('drop');
    const refuse = await stubCollector('refuse');
    const foreign = await stubCollector('foreign');
    try {
      const quiet = ['--duration', '1', '--rate', '4', '--quiet'];
      const [dropped, refused, noHealth, nobody] = await Promise.all([
        demo([...quiet, '--otlp', `${drop.url}/v1/traces`], cleanEnv({ OTEL_BSP_SCHEDULE_DELAY: '200' })),
        demo(
          [...quiet, '--otlp', refuse.url],
          cleanEnv({ FAULTLINE_INGEST_TOKEN: 'not-the-collectors-token' }),
        ),
        demo([...quiet, '--otlp', foreign.url], cleanEnv()),
        freePort().then((port) => demo([...quiet, '--otlp', `http://127.0.0.1:${port}`], cleanEnv())),
      ]);

      // Took every export, stored none: the run happens, then the check fails it; no totals.
      expect(dropped.status, dropped.stdout + dropped.stderr).toBe(1);
      expect(dropped.stdout).toMatch(/demo: sent \d+ workflows/);
      expect(dropped.stderr).toContain(
        `demo: nothing the demo sent was stored: the collector at ${drop.url} accepted no span during the run`,
      );
      expect(dropped.stdout).not.toContain('expected totals');
      expect(drop.exports()).toBeGreaterThan(1); // the services did export to it

      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `the collector at ${refuse.url}/v1/traces refuses the demo's exports (401`,
      );
      expect(refused.stderr).toContain('Set FAULTLINE_INGEST_TOKEN to its ingest token');

      expect(noHealth.status).toBe(1);
      expect(noHealth.stderr).toContain("is not a Faultline collector's: it has no span counters");
      expect(noHealth.stderr).toContain('or pass --no-check');

      expect(nobody.status).toBe(1);
      expect(nobody.stderr).toMatch(
        /demo: no collector answers at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      );
      for (const r of [dropped, refused, noHealth, nobody]) expect(r.stdout).not.toContain('expected totals');
    } finally {
      await Promise.all([drop.close(), refuse.close(), foreign.close()]);
    }
  });

  it("survives its own deadlock whichever side PostgreSQL aborts, and retries the victim's statement", async () => {
    const child = resolve(import.meta.dirname, 'deadlock-victim-child.mjs');
    const usual = await runNode([child, 'c1-victim'], cleanEnv(), 30_000);
    const rare = await runNode([child, 'c2-victim'], cleanEnv(), 30_000);
    for (const r of [usual, rare]) expect(r.status, r.stderr).toBe(0);
    // c1 aborted: attempt 2 takes b again (a 10, b 9); c2 aborted: it gives a again (a 11, b 10).
    expect(JSON.parse(usual.stdout)).toEqual({ resolved: true, rowCount: 1, escaped: [], stock: [10, 9] });
    expect(JSON.parse(rare.stdout)).toEqual({ resolved: true, rowCount: 1, escaped: [], stock: [11, 10] });
  });
});
