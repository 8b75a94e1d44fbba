import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShimProcess, startShim } from '../../../sql/test/support/shim-process.js';
import { waitForInserted } from '../../src/client/wait-for-inserted.js';
import { startReceiver } from '../alerts/receivers.js';
import { exportSpans, makeSpans, type SpanSpec } from '../receiver/helpers/make-spans.js';
import { runCli, runStart, type StartedPart, startPart } from './start-part.js';

// Issue 5's claim, end to end: against a ClickHouse server (the HTTP shim over chDB in its own
// process) the collector, the dashboard and the alerts role run as three `npm start --role …`
// processes, spans come in through the official OTLP exporter, the overview page shows the counts
// SQL gives, and the alerts role (alone, on its own port) pages for the burning services.
const PREFIX = `h7-sm-${process.pid}`;
let dir: string;
let shim: ShimProcess;
let collector: StartedPart;
let dashboard: StartedPart;
let alerts: StartedPart;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let store: Store;
let from: number;
let to: number;

const call = (name: string, source: string, failure?: [cls: string, code: string, retryable: boolean]) => {
  const spec: SpanSpec = {
    name,
    attributes: { 'faultline.source': source, 'faultline.correlation_id': `${PREFIX}-req` },
  };
  if (failure) {
    const [cls, code, retryable] = failure;
    Object.assign(spec.attributes!, {
      'faultline.class': cls,
      'faultline.code': code,
      'faultline.message': `${cls} from ${source}`,
      'faultline.retryable': retryable,
    });
    spec.error = `${cls} ${code}`;
  }
  return spec;
};

// What is sent, and so what the page must show: client calls per service (each trace also has a
// root server span, which the budget does not count) and failures per class × source.
const CHECKOUT = `${PREFIX}-checkout`;
const PAYMENTS = `${PREFIX}-payments`;
const SENT: [string, SpanSpec[]][] = [
  [
    CHECKOUT,
    [
      call('POST /v1/charges', 'http', ['rate_limit', '429', true]),
      call('POST /v1/charges', 'http', ['rate_limit', '429', true]),
      call('INSERT orders', 'db', ['transient', '40P01', true]),
      call('GET /v1/stock', 'http'),
      call('SELECT orders', 'db'),
      call('SELECT orders', 'db'),
    ],
  ],
  [
    PAYMENTS,
    [
      call('PutItem', 'sdk', ['authentication', 'UnrecognizedClientException', false]),
      call('GetItem', 'sdk'),
      call('GetItem', 'sdk'),
    ],
  ],
];
const EXPECTED_MATRIX = { 'authentication-sdk': 1, 'rate_limit-http': 2, 'transient-db': 1 };
const EXPECTED_BUDGET = { [CHECKOUT]: { calls: 6, failures: 3 }, [PAYMENTS]: { calls: 3, failures: 1 } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h7-server-mode-'));
  shim = await startShim(0, join(dir, 'clickhouse'));
  hook = await startReceiver(() => ({ status: 200 }));
  const env = {
    ...process.env,
    FAULTLINE_CLICKHOUSE_URL: `http://127.0.0.1:${shim.port}`,
    // Would be the embedded directory; in server mode nothing may be written there.
    FAULTLINE_DATA_DIR: join(dir, 'embedded-unused'),
    FAULTLINE_SPOOL_DIR: join(dir, 'spool'),
    FAULTLINE_ALERT_INTERVAL_S: '1',
    // A handful of calls per service: judge any window with traffic (the default asks for 250).
    FAULTLINE_ALERT_MIN_EVENTS: '1',
    FAULTLINE_ALERT_WEBHOOK_URL: hook.url,
  };
  // The operator migrates first (the dashboard alone never alters the schema): a dry run shows the
  // steps and changes nothing, --apply applies them, and a second dry run finds nothing to do.
  const dry = runCli(['migrate'], env);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toMatch(
    /^schema: version 0 in the server http:\/\/127\.0\.0\.1:\d+ \(database default\); this release knows \d+$/m,
  );
  expect(dry.stdout).toContain('-- pending sql/schema/001_otel_traces.sql');
  expect(dry.stdout).toContain('Dry run: nothing changed.');
  const applied = runCli(['migrate', '--apply'], env);
  expect(applied.status, applied.stderr).toBe(0);
  expect(applied.stdout).toMatch(
    /^\[1\/\d+\] sql\/schema\/000_schema_migrations\.sql: 1 statement\(s\) in \d+ ms$/m,
  );
  expect(applied.stdout).toMatch(/^applied \d+ schema step\(s\); schema version \d+$/m);
  expect(runCli(['migrate'], env).stdout).toContain('schema steps: up to date');
  // Started apart: each opens its own Store against the same server.
  [collector, dashboard, alerts] = await Promise.all([
    startPart(['--role', 'collector', '--otlp-port', '0'], env, /^faultline: otlp (\S+)\/v1\/traces$/),
    startPart(['--role', 'dashboard', '--port', '0'], env, /^faultline: dashboard (\S+)$/),
    startPart(['--role', 'alerts', '--alerts-port', '0'], env, /^faultline: alerts (\S+)\/metrics$/),
  ]);
  store = await openStore({ url: env.FAULTLINE_CLICKHOUSE_URL });
  const now = Math.floor(Date.now() / 1000);
  from = Math.floor(now / 60) * 60 - 60;
  to = Math.ceil((now + 60) / 60) * 60;
});

afterAll(async () => {
  await Promise.allSettled([collector?.stop(), dashboard?.stop(), alerts?.stop()]);
  await hook?.close();
  await store?.close();
  await shim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The matrix cells and budget rows as the server-rendered overview HTML carries them. */
function parseOverview(html: string) {
  const matrix: Record<string, number> = {};
  for (const m of html.matchAll(/data-testid="matrix-([a-z_]+-[a-z]+)"[^>]*? data-failures="(\d+)"/g)) {
    matrix[m[1]!] = Number(m[2]);
  }
  const budget: Record<string, { calls: number; failures: number }> = {};
  const row =
    // A count is the cell's text, or its link's (a count opens the rows it counts).
    /<tr data-service="([^"]+)">.*?data-testid="budget-calls">(?:<a [^>]*>)?([\d,]+)<.*?data-testid="budget-failures">(?:<a [^>]*>)?([\d,]+)</gs;
  for (const m of html.matchAll(row)) {
    budget[m[1]!] = { calls: Number(m[2]!.replace(/,/g, '')), failures: Number(m[3]!.replace(/,/g, '')) };
  }
  return { matrix, budget };
}

describe('collector and dashboard as two processes against a ClickHouse server', () => {
  it('shows on the overview page the counts that SQL over the same server returns', async () => {
    for (const [service, specs] of SENT) {
      const exporter = new OTLPTraceExporter({ url: `${collector.url}/v1/traces` });
      const result = await exportSpans(exporter, makeSpans(service, specs));
      expect(result, String(result.error)).toEqual({ ok: true, error: undefined });
      await exporter.shutdown();
    }
    // The collector acknowledges after its write-ahead fsync and inserts in the background:
    // compare only once it reports nothing pending, so SQL sees every acknowledged span.
    await waitForInserted(collector.url);
    const failures = await store.runNamed<{ class: string; source: string; failures: number }>(
      'dashboard/failure_counts',
      { from, to, service: '', source: '' },
    );
    const sqlMatrix = Object.fromEntries(
      failures.rows.map((r) => [`${r.class}-${r.source}`, Number(r.failures)]),
    );
    expect(sqlMatrix).toEqual(EXPECTED_MATRIX);
    const calls = await store.runNamed<{ service: string; calls: number; failures: number }>(
      'dashboard/call_counts',
      { from, to, service: '' },
    );
    const sqlBudget = Object.fromEntries(
      calls.rows.map((r) => [r.service, { calls: Number(r.calls), failures: Number(r.failures) }]),
    );
    expect(sqlBudget).toEqual(EXPECTED_BUDGET);

    // The outbound-calls SLI, caller faults counted: the budget rows are the calls call_counts counts.
    const res = await fetch(`${dashboard.url}/?from=${from}&to=${to}&sli=calls&caller_faults=include`);
    expect(res.status).toBe(200);
    const page = parseOverview(await res.text());
    expect(page.matrix).toEqual(sqlMatrix);
    expect(page.budget).toEqual(sqlBudget);

    // A service filter in the URL narrows the page the way it narrows SQL.
    const filtered = parseOverview(
      await (
        await fetch(
          `${dashboard.url}/?from=${from}&to=${to}&service=${PAYMENTS}&sli=calls&caller_faults=include`,
        )
      ).text(),
    );
    expect(filtered.matrix).toEqual({ 'authentication-sdk': 1 });
    expect(filtered.budget).toEqual({ [PAYMENTS]: EXPECTED_BUDGET[PAYMENTS] });
    // Every process went through the server: none opened an embedded data directory.
    expect(existsSync(join(dir, 'embedded-unused'))).toBe(false);
  });

  it('pages from the alerts role alone: both services burn (3 of 6 and 1 of 3 calls failed)', async () => {
    type Notice = { status: string; service: string; severity: string; class: string };
    const firing = () =>
      hook.bodies
        .map((b) => b.body as Notice)
        .filter((n) => n.status === 'firing' && n.severity === 'page')
        .map((n) => `${n.service} ${n.class}`)
        .sort();
    const deadline = Date.now() + 20_000;
    while (firing().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(firing()).toEqual([`${CHECKOUT} rate_limit`, `${PAYMENTS} authentication`]);
    const health = await fetch(`${alerts.url}/healthz`);
    expect(health.status).toBe(200);
    // A burn this fast (far above 14.4×) holds the ticket rule too: a page and a ticket per service.
    expect(await health.json()).toMatchObject({ status: 'ok', role: 'alerts', firing: 4 });
    const metrics = await (await fetch(`${alerts.url}/metrics`)).text();
    expect(metrics).toMatch(
      /^faultline_alerts_firing\{alertname="ErrorBudgetBurn",service="[^"]+-checkout",severity="page"\} 1$/m,
    );
    // The collectors do not evaluate: their /metrics carries no alert series.
    expect(await (await fetch(`${collector.url}/metrics`)).text()).not.toContain('faultline_alerts_firing');
  });
});

describe('npm start --role', () => {
  const env = { ...process.env, FAULTLINE_CLICKHOUSE_URL: '' };

  it('refuses to split over an embedded data directory, and says why and what to do', () => {
    const r = runStart(['--role', 'dashboard'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--role dashboard needs a ClickHouse server.*FAULTLINE_CLICKHOUSE_URL/s);
    const alias = runStart(['--only', 'collector,alerts'], env);
    expect(alias.status).toBe(2);
    expect(alias.stderr).toMatch(/--only collector,alerts needs a ClickHouse server/);
  });

  it('refuses an unknown role and an unknown flag', () => {
    const role = runStart(['--role', 'collector,alert'], env);
    expect(role.status).toBe(2);
    expect(role.stderr).toContain(
      '"alert" is not a role. Give all, or one or more of collector, dashboard, alerts',
    );
    const fromEnv = runStart([], { ...env, FAULTLINE_ROLE: 'web' });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain('FAULTLINE_ROLE web: "web" is not a role');
    const flag = runStart(['--onyl', 'collector'], env);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--onyl'");
  });

  it('documents --role in --help', () => {
    const r = runStart(['--help'], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /--role <roles>\s+all \(default\), or one or more of collector, dashboard, alerts/,
    );
    expect(r.stdout).toMatch(/--alerts-port <n>/);
  });
});
