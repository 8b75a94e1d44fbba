#!/usr/bin/env node
// Screenshots of every page over demo data, for the README and for looking at a change:
//   node dashboard/scripts/screenshots.mjs [--widths 1440] [--out dashboard/docs/screenshots] [--duration 60]
// Starts Faultline on a temp data directory (free ports), runs `scripts/demo.mjs` against it, then
// Debian's Chromium (playwright-core, /usr/bin/chromium or CHROMIUM_PATH; never a downloaded
// browser) takes a full-page PNG of each page at each width: <page>.png at 1440 px (the README's),
// <page>-<width>.png at the others. The request page is reached as the on-call engineer reaches it:
// the first failure group's example request, its failing span selected. Needs a built dashboard
// (`npx next build`) and the demo's PostgreSQL, MariaDB and Redis.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '../..');
const README_WIDTH = 1440;

const { values } = parseArgs({
  options: {
    widths: { type: 'string', default: String(README_WIDTH) },
    out: { type: 'string', default: resolve(import.meta.dirname, '../docs/screenshots') },
    duration: { type: 'string', default: '60' },
    rate: { type: 'string', default: '6' },
  },
});
const widths = values.widths.split(',').map(Number);
if (widths.some((w) => !Number.isInteger(w) || w < 320 || w > 3840)) {
  throw new Error(`--widths takes widths in px between 320 and 3840, got ${values.widths}`);
}

/** `npm start` in a child on free ports and a temp data directory; resolves with its URLs. */
function startFaultline(dataDir) {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--otlp-port', '0'], {
    cwd: ROOT,
    env: { ...process.env, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_CLICKHOUSE_URL: '' },
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

const PAGES = [
  ['overview', '/?range=1h'],
  ['failures', '/failures?range=1h'],
  ['dependencies', '/dependencies?range=1h'],
  ['workflows', '/workflows?range=1h'],
  ['retries', '/retries?range=1h'],
  ['alerts', '/alerts'],
];

const dataDir = mkdtempSync(join(tmpdir(), 'faultline-screenshots-'));
const profile = mkdtempSync(join(tmpdir(), 'faultline-screenshots-chromium-'));
const app = await startFaultline(dataDir);
let browser;
try {
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
