#!/usr/bin/env node
// Screenshots of every page over demo data, for the README and for looking at a change:
//   node dashboard/scripts/screenshots.mjs [--widths 1440] [--out dashboard/docs/screenshots] [--duration 60]
// Starts Faultline on a temp data directory (free ports), runs `scripts/demo.mjs` against it, then
// Debian's Chromium (playwright-core, /usr/bin/chromium or CHROMIUM_PATH; never a downloaded
// browser) takes a full-page PNG of each page at each width: <page>.png at 1440 px (the README's),
// <page>-<width>.png at the others. The request page is reached as the on-call engineer reaches it:
// the first failure group's example request, its failing span selected. The Alerts page is shown as
// an incident reads it: a silence on payments in force (made through the dashboard's own route) and a service
// that stopped sending (`reports`, a batch job whose burning calls end before the demo, stale after
// FAULTLINE_ALERT_STALE_AFTER_S=120 here), so the script waits until its alerts are stale. The Agents
// page shows the agent scenario of issue 32 (collector/test/agents/send-agent-scenario.mjs: 16 runs
// of the real `ai` and MCP SDKs under the preload, service `agents`). Needs a built dashboard
// (`npx next build`) and the demo's PostgreSQL, MariaDB and Redis.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { sendAgentScenario } from '../../collector/test/agents/send-agent-scenario.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const README_WIDTH = 1440;

const USAGE = `usage: node dashboard/scripts/screenshots.mjs [--widths 1280,1440,1920] [--out DIR] [--duration S] [--rate N]
  --widths    page widths in px, comma-separated, each 320 to 3840 (default ${README_WIDTH})
  --out       where the PNGs go (default dashboard/docs/screenshots)
  --duration  seconds of demo traffic before the shots (default 60)
  --rate      demo requests per second (default 6)`;

/** A bad flag is said in one line with the usage, never as a stack trace. */
function usageError(message) {
  console.error(`screenshots: ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      widths: { type: 'string', default: String(README_WIDTH) },
      out: { type: 'string', default: resolve(import.meta.dirname, '../docs/screenshots') },
      duration: { type: 'string', default: '60' },
      rate: { type: 'string', default: '6' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (err) {
  usageError(err.message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const widths = values.widths.split(',').map(Number);
if (widths.some((w) => !Number.isInteger(w) || w < 320 || w > 3840)) {
  usageError(`--widths takes widths in px between 320 and 3840, got ${values.widths}`);
}
for (const flag of ['duration', 'rate']) {
  const n = Number(values[flag]);
  if (!Number.isFinite(n) || n <= 0) usageError(`--${flag} takes a positive number, got ${values[flag]}`);
}

/** `npm start` in a child on free ports and a temp data directory; resolves with its URLs. */
function startFaultline(dataDir) {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--otlp-port', '0'], {
    cwd: ROOT,
    env: {
      ...process.env,
      FAULTLINE_DATA_DIR: dataDir,
      FAULTLINE_CLICKHOUSE_URL: '',
      FAULTLINE_ALERT_INTERVAL_S: '5',
      FAULTLINE_ALERT_STALE_AFTER_S: '120',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ok, ko) => {
    const found = {};
    const timer = setTimeout(() => ko(new Error('faultline did not come up in 60 s')), 60_000);
    const early = (code) => ko(new Error(`faultline exited with ${code}`));
    child.once('exit', early);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const otlp = /^faultline: otlp (\S+)\/v1\/traces$/.exec(line);
      const dash = /^faultline: dashboard (\S+)$/.exec(line);
      if (otlp) found.otlp = otlp[1];
      if (dash) found.dashboard = dash[1];
      if (found.otlp && found.dashboard) {
        clearTimeout(timer);
        child.off('exit', early);
        ok({ child, ...found });
      }
    });
  });
}

function run(args) {
  return new Promise((ok, ko) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code) =>
      code === 0 ? ok() : ko(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

const hex = (n, width) => n.toString(16).padStart(width, '0');

/**
 * `reports` (version 3.1.0): 300 calls to warehouse.internal:9000 in one second, a third failing
 * transient 503, then nothing: it pages, and stops. OTLP/JSON, as any exporter may send it.
 */
async function sendStoppedService(otlp) {
  const at = Date.now() - 20_000;
  const kv = (key, value) => ({
    key,
    value: typeof value === 'number' ? { intValue: value } : { stringValue: value },
  });
  const spans = Array.from({ length: 300 }, (_, i) => {
    const failed = i % 3 === 0;
    const start = BigInt(at + i) * 1_000_000n;
    return {
      traceId: hex(Date.now(), 16) + hex(i + 1, 16),
      spanId: hex(i + 1, 16),
      name: 'GET /stock',
      kind: 3,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 20_000_000n),
      attributes: [
        kv('server.address', 'warehouse.internal'),
        kv('server.port', 9000),
        kv('url.full', 'http://warehouse.internal:9000/stock'),
        kv('faultline.source', 'http'),
        kv('faultline.correlation_id', `reports-${i}`),
        ...(failed
          ? [
              kv('faultline.class', 'transient'),
              kv('faultline.code', '503'),
              kv('faultline.message', 'warehouse unavailable'),
              kv('faultline.retryable', 'true'),
            ]
          : []),
      ],
      status: { code: failed ? 2 : 0 },
    };
  });
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [kv('service.name', 'reports'), kv('service.version', '3.1.0')] },
        scopeSpans: [{ scope: { name: 'screenshots' }, spans }],
      },
    ],
  };
  const res = await fetch(`${otlp}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`sending reports' spans: HTTP ${res.status} ${await res.text()}`);
}

/** A silence in force, made as the Alerts page makes one (its route, JSON from the page's origin). */
async function silence(dashboard) {
  const res = await fetch(`${dashboard}/api/alerts/silences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: dashboard },
    body: JSON.stringify({
      service: 'payments',
      duration: '2h',
      author: 'ana',
      reason: 'INC-42: the payment provider is degraded, their status page acknowledges it',
    }),
  });
  if (res.status !== 201) throw new Error(`creating the silence: HTTP ${res.status} ${await res.text()}`);
}

const PAGES = [
  ['overview', '/?range=1h'],
  ['failures', '/failures?range=1h'],
  ['dependencies', '/dependencies?range=1h'],
  ['workflows', '/workflows?range=1h'],
  ['retries', '/retries?range=1h'],
  ['agents', '/agents?range=1h'],
  ['alerts', '/alerts'],
];

const dataDir = mkdtempSync(join(tmpdir(), 'faultline-screenshots-'));
const profile = mkdtempSync(join(tmpdir(), 'faultline-screenshots-chromium-'));
const app = await startFaultline(dataDir);
let browser;
try {
  await sendStoppedService(app.otlp);
  await silence(app.dashboard);
  await sendAgentScenario({ otlpUrl: app.otlp, service: 'agents' });
  await run([
    'scripts/demo.mjs',
    '--duration',
    values.duration,
    '--rate',
    values.rate,
    '--otlp',
    app.otlp,
    '--quiet',
  ]);
  mkdirSync(values.out, { recursive: true });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  // Wait (at most 4 min) for reports' alerts to go stale: the Alerts page shows it with its reason.
  const deadline = Date.now() + 240_000;
  for (;;) {
    await page.goto(`${app.dashboard}/alerts`);
    if ((await page.locator('[data-testid="stale-alert"]').count()) > 0) break;
    if (Date.now() > deadline) throw new Error('reports did not go stale within 4 minutes');
    await page.waitForTimeout(5000);
  }
  const shot = async (name, width) => {
    // Charts draw after hydration: wait for the network to settle, then a moment for recharts.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const file = join(values.out, width === README_WIDTH ? `${name}.png` : `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshots: ${file}`);
  };
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of PAGES) {
      await page.goto(`${app.dashboard}${path}`);
      await shot(name, width);
    }
    // The SQL console as a panel's "Open as a query" leaves it, the query run.
    await page.goto(`${app.dashboard}/failures?range=1h`);
    await page.getByTestId('groups-query').click();
    await page.getByTestId('run-named').click();
    await page.getByTestId('sql-table').waitFor();
    await shot('sql', width);
    // The request page as the on-call path reaches it: a failure group's example, its span selected.
    await page.goto(`${app.dashboard}/failures?range=1h`);
    await page.getByTestId('group-example').first().click();
    await page.getByTestId('span-panel').waitFor();
    await shot('request', width);
  }
} finally {
  await browser?.close();
  if (app.child.exitCode === null) {
    const exited = new Promise((ok) => app.child.once('exit', ok));
    app.child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
