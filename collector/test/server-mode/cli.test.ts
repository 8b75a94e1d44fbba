import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShimProcess, startShim } from '../../../sql/test/support/shim-process.js';
import { waitForInserted } from '../../src/client/wait-for-inserted.js';
import { exportSpans, makeSpans, type SpanSpec } from '../receiver/helpers/make-spans.js';
import { runCli, type StartedPart, startPart } from './start-part.js';

// `npx faultline sql` and `doctor` against both targets the issue names: a ClickHouse server (the
// HTTP shim over chDB in its own process) with a collector role, and the running all-in-one
// process, whose embedded data directory only it may open. What is sent, and so what SQL returns:
// checkout 3 client calls (2 failed rate_limit 429), payments 1, and a service whose name carries
// an ANSI escape (a terminal must show it, not obey it); each service's calls sit under one root
// server span, so 8 spans in all.
const EVIL = 'evil\u001b[2Jsvc';
const failed = (cls: string, code: string): SpanSpec => ({
  name: 'POST /v1/charges',
  attributes: {
    'faultline.source': 'http',
    'faultline.class': cls,
    'faultline.code': code,
    'faultline.message': code,
  },
  error: code,
});
const SENT: [string, SpanSpec[]][] = [
  [
    'checkout',
    [failed('rate_limit', '429'), failed('rate_limit', '429'), { name: 'GET /stock', attributes: {} }],
  ],
  ['payments', [{ name: 'PutItem', attributes: { 'faultline.source': 'sdk' } }]],
  [EVIL, [{ name: 'x', attributes: {} }]],
];
const COUNT_SQL =
  "SELECT ServiceName AS service, count() AS spans FROM otel_traces WHERE SpanKind = 'Client' GROUP BY service ORDER BY service";

async function send(otlpUrl: string) {
  for (const [service, specs] of SENT) {
    const exporter = new OTLPTraceExporter({ url: `${otlpUrl}/v1/traces` });
    const r = await exportSpans(exporter, makeSpans(service, specs));
    expect(r.ok, String(r.error)).toBe(true);
    await exporter.shutdown();
  }
  await waitForInserted(otlpUrl);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fl-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npx faultline', () => {
  it('lists its commands, and each answers --help', () => {
    const top = runCli(['--help'], process.env);
    expect(top.status).toBe(0);
    for (const c of ['start', 'migrate', 'sql', 'doctor', 'rules'])
      expect(top.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    for (const [c, usage] of [
      ['start', 'Usage: npm start -- [options]'],
      ['migrate', 'Usage: faultline migrate [--apply] [--backfill] [--print]'],
      ['sql', 'Usage: faultline sql "<query>"'],
      ['doctor', 'Usage: faultline doctor'],
      ['rules', 'Usage: faultline rules [--out <file>]'],
    ] as const) {
      const r = runCli([c, '--help'], process.env);
      expect(r.status, `${c}: ${r.stderr}`).toBe(0);
      expect(r.stdout.startsWith(usage), c).toBe(true);
    }
    const bad = runCli(['migrat'], process.env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('"migrat" is not a command. Commands: start, migrate, sql, doctor, rules');
    expect(runCli(['migrate', '--backfill'], process.env).stderr).toContain('--backfill runs with --apply');
  });
});

describe('faultline sql and doctor against a ClickHouse server', () => {
  let shim: ShimProcess;
  let collector: StartedPart;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    shim = await startShim(0, join(dir, 'clickhouse'));
    env = {
      ...process.env,
      FAULTLINE_CLICKHOUSE_URL: `http://127.0.0.1:${shim.port}`,
      FAULTLINE_DATA_DIR: join(dir, 'unused'),
      FAULTLINE_SPOOL_DIR: join(dir, 'spool'),
    };
    expect(runCli(['migrate', '--apply'], env).status).toBe(0);
    collector = await startPart(
      ['--role', 'collector', '--otlp-port', '0'],
      env,
      /^faultline: otlp (\S+)\/v1\/traces$/,
    );
    await send(collector.url);
  }, 120_000);
  afterAll(async () => {
    await collector?.stop();
    await shim?.stop();
  });

  it('prints a table, csv and json of what was sent, and shows a hostile name without obeying it', () => {
    const table = runCli(['sql', COUNT_SQL], env);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout.split('\n').slice(0, 5)).toEqual([
      'service             spans',
      '──────────────────  ─────',
      'checkout            3',
      'evil⟨U+001B⟩[2Jsvc  1',
      'payments            1',
    ]);
    expect(table.stdout).not.toContain('\u001b');
    expect(table.stderr).toContain('3 row(s)');
    const csv = runCli(['sql', COUNT_SQL, '--format', 'csv'], env);
    expect(csv.stdout.trim().split('\r\n')).toEqual([
      'service,spans',
      'checkout,3',
      `${EVIL},1`,
      'payments,1',
    ]);
    const json = runCli(['sql', COUNT_SQL, '--format', 'json'], env);
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { service: 'checkout', spans: 3 },
      { service: EVIL, spans: 1 },
      { service: 'payments', spans: 1 },
    ]);
  });

  it('runs a saved query with typed parameters, and refuses what the console refuses', () => {
    const now = Math.floor(Date.now() / 1000);
    const r = runCli(
      [
        'sql',
        '--name',
        'dashboard/failure_counts',
        '--param',
        `from=${now - 3600}`,
        '--param',
        `to=${now + 3600}`,
        '--param',
        'service=',
        '--param',
        'source=',
        '--format',
        'json',
      ],
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toMatchObject([{ class: 'rate_limit', source: 'http' }]);
    expect(Number(JSON.parse(r.stdout.trim()).failures)).toBe(2);
    const bad = runCli(['sql', '--name', 'dashboard/failure_counts', '--param', 'nope=1'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/has no parameter nope/);
    const write = runCli(['sql', 'DROP TABLE otel_traces'], env);
    expect(write.status).toBe(1);
    expect(
      runCli(['sql', 'SELECT count() AS n FROM otel_traces', '--format', 'json'], env).stdout.trim(),
    ).toBe('{"n":8}');
    expect(runCli(['sql', '--format', 'xml', 'SELECT 1'], env).stderr).toContain('give table, csv or json');
  });

  it('doctor: every check passes, with the server clock, the schema version and the backlog', () => {
    const r = runCli(['doctor', '--collector-url', collector.url, '--json'], env);
    const checks = JSON.parse(r.stdout) as { name: string; verdict: string; detail: string }[];
    expect(Object.fromEntries(checks.map((c) => [c.name, c.verdict]))).toEqual({
      connectivity: 'ok',
      'clock skew': 'ok',
      'schema version': 'warn', // the backfills are a separate step: `migrate --apply --backfill`
      'ingest token': 'warn',
      'writer backlog': 'ok',
      'disk (write-ahead log)': 'ok',
    });
    expect(r.status).toBe(0);
    expect(checks.find((c) => c.name === 'writer backlog')!.detail).toMatch(/^0 span\(s\) acknowledged/);
    const down = runCli(['doctor', '--collector-url', 'http://127.0.0.1:1'], env);
    expect(down.status).toBe(1);
    expect(down.stdout).toMatch(
      /✗ fail writer backlog +no collector answers at http:\/\/127\.0\.0\.1:1\/healthz/,
    );
  });
});

describe('faultline sql and doctor against the running all-in-one process', () => {
  let app: StartedPart;
  let otlp: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    env = { ...process.env, FAULTLINE_CLICKHOUSE_URL: '', FAULTLINE_DATA_DIR: join(dir, 'aio') };
    let otlpLine = '';
    app = await startPart(
      ['--port', '0', '--otlp-port', '0'],
      env,
      /^faultline: dashboard (\S+)$/,
      (line) => {
        const m = /^faultline: otlp (\S+)\/v1\/traces$/.exec(line);
        if (m) otlpLine = m[1]!;
      },
    );
    otlp = otlpLine;
    await send(otlp);
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('asks the process through its dashboard, since the data directory is the process’s', () => {
    const r = runCli(['sql', '--url', app.url, COUNT_SQL, '--format', 'csv'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\r\n')).toEqual(['service,spans', 'checkout,3', `${EVIL},1`, 'payments,1']);
    const none = runCli(['sql', '--url', 'http://127.0.0.1:1', 'SELECT 1'], env);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no Faultline answers at http://127.0.0.1:1');
  });

  it('doctor reads connectivity and the schema version from the process holding the directory', () => {
    const r = runCli(['doctor', '--collector-url', otlp, '--json'], env);
    const checks = JSON.parse(r.stdout) as { name: string; verdict: string; detail: string }[];
    const by = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(by.connectivity!.verdict).toBe('ok');
    expect(by.connectivity!.detail).toContain('held by the running Faultline');
    expect(by['schema version']!.verdict).toBe('ok');
    expect(by['schema version']!.detail).toMatch(
      /^version \d+ \(the running process migrated itself at start/,
    );
    expect(r.status).toBe(0);
  });
});
