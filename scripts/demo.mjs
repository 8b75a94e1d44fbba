// `npm run demo`: a fault-injecting workload under the Faultline preload, so the dashboard has
// something to show within a minute. Three services (checkout → inventory, payments) run as child
// processes with `node --import @faultline/instrumentation/register`, calling a local upstream
// HTTP API, PostgreSQL, Redis, MariaDB and the AWS SDK, and export spans to the collector.
//
//   npm run demo [-- --duration 60] [--rate 4] [--otlp http://127.0.0.1:4318]
//   --duration  seconds to run (default: until Ctrl-C)
//   --rate      workflows started per second (default 4)
//   --otlp      the collector's OTLP/HTTP base URL (default $OTEL_EXPORTER_OTLP_ENDPOINT or http://127.0.0.1:4318)
// Prints `demo: sent N workflows (correlation ids demo-<run>-1…N)` at the end, then the scenario mix
// it ran and what the dashboard should show for it (from the hand-written expectations in
// demo/scenarios.mjs): first-hand failures by class × source, logical calls and retries.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createFixtures } from './demo/fixtures.mjs';
import { DEMO_SERVICES, expectedTotals, SCENARIOS, scenarioCycle } from './demo/scenarios.mjs';
import { startUpstream } from './demo/upstream-server.mjs';

const root = resolve(import.meta.dirname, '..');
const USAGE = 'Usage: npm run demo -- [--duration <seconds>] [--rate <workflows/s>] [--otlp <url>]';

function fail(message) {
  console.error(`demo: ${message}\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      duration: { type: 'string' },
      rate: { type: 'string' },
      otlp: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  fail(err.message);
}
if (args.help) {
  console.log(
    `${USAGE}\n\nScenarios:\n${SCENARIOS.map((s) => `  ${s.name.padEnd(22)} ${s.what}`).join('\n')}`,
  );
  process.exit(0);
}

const duration = args.duration === undefined ? Number.POSITIVE_INFINITY : Number(args.duration);
if (!(duration > 0)) fail(`--duration ${args.duration} is not a number of seconds greater than 0.`);
const rate = args.rate === undefined ? 4 : Number(args.rate);
if (!(rate > 0 && rate <= 200))
  fail(`--rate ${args.rate} is not a number of workflows per second in (0, 200].`);
const otlp = (args.otlp ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://127.0.0.1:4318').replace(
  /\/+$/,
  '',
);
let otlpUrl;
try {
  otlpUrl = new URL(otlp);
  if (!/^https?:$/.test(otlpUrl.protocol)) throw new Error('not http(s)');
} catch {
  fail(`--otlp ${otlp} is not an http(s) URL such as http://127.0.0.1:4318.`);
}

// Fail early and clearly when nothing listens: the services would export into the void.
try {
  await fetch(`${otlp}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
} catch (err) {
  fail(
    `no collector answers at ${otlp} (${err.cause?.code ?? err.cause?.errors?.[0]?.code ?? err.cause?.message ?? err.message}). Start it with \`npm start\` first, or pass --otlp.`,
  );
}

const log = (line) => {
  if (!args.quiet) console.log(line);
};

await createFixtures().catch((err) => fail(err.message));
const upstream = await startUpstream();
const runId = Date.now().toString(36);
const children = [];

function startService(name, env) {
  return new Promise((ok, ko) => {
    const child = spawn(
      process.execPath,
      [
        // The AWS SDK warns that its 2027 releases need Node 22: noise for a demo.
        '--disable-warning=NodeVersionSupportWarning',
        '--import',
        '@faultline/instrumentation/register',
        resolve(root, `scripts/demo/service-${name}.mjs`),
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          OTEL_SERVICE_NAME: name,
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
          OTEL_BSP_SCHEDULE_DELAY: process.env.OTEL_BSP_SCHEDULE_DELAY ?? '1000',
          UPSTREAM_URL: upstream.url,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    const lastErr = [];
    createInterface({ input: child.stderr }).on('line', (line) => {
      lastErr.push(line);
      if (lastErr.length > 30) lastErr.shift();
      if (!args.quiet) console.error(`[${name}] ${line}`);
    });
    const timer = setTimeout(() => ko(new Error(`service ${name} did not start within 30 s`)), 30_000);
    child.once('exit', (code) =>
      ko(new Error(`service ${name} exited with ${code} before it was ready:\n${lastErr.join('\n')}`)),
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        ok(`http://127.0.0.1:${m[1]}`);
      } else log(`[${name}] ${line}`);
    });
  });
}

async function stopAll() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((ok) => {
          if (child.exitCode !== null) return ok();
          child.once('exit', ok);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  await upstream.close();
}

let stopping = false;
process.on('SIGINT', () => {
  stopping = true;
});

let sent = 0;
const outcomes = { ok: 0, failed: 0 };
const ran = {};
try {
  const [inventory, payments] = await Promise.all([startService('inventory'), startService('payments')]);
  const checkout = await startService('checkout', { INVENTORY_URL: inventory, PAYMENTS_URL: payments });
  log(`demo: upstream ${upstream.url}, checkout ${checkout}, exporting to ${otlp}`);
  log(
    `demo: ${rate} workflows/s${Number.isFinite(duration) ? ` for ${duration}s` : ' until Ctrl-C'}; open the dashboard (npm start) to watch`,
  );

  const cycle = scenarioCycle();
  const started = Date.now();
  const inflight = new Set();
  while (!stopping && Date.now() - started < duration * 1000) {
    const n = ++sent;
    const scenario = cycle[(n - 1) % cycle.length];
    ran[scenario] = (ran[scenario] ?? 0) + 1;
    const correlationId = `demo-${runId}-${n}`;
    const call = fetch(`${checkout}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-correlation-id': correlationId },
      body: JSON.stringify({ scenario, order: correlationId }),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        outcomes[res.ok ? 'ok' : 'failed']++;
      })
      .catch(() => outcomes.failed++)
      .finally(() => inflight.delete(call));
    inflight.add(call);
    if (n % Math.max(1, Math.round(rate * 10)) === 0)
      log(`demo: ${n} workflows sent (${outcomes.ok} ok, ${outcomes.failed} failed)`);
    await new Promise((r) => setTimeout(r, 1000 / rate));
  }
  await Promise.all(inflight);
} catch (err) {
  await stopAll();
  fail(err.message);
}
await stopAll();
console.log(
  `demo: sent ${sent} workflows (correlation ids demo-${runId}-1…${sent}): ${outcomes.ok} succeeded, ${outcomes.failed} failed`,
);
printExpected();

/** The run's own numbers, so a person can hold the Overview against them. */
function printExpected() {
  const expected = expectedTotals(ran);
  const mix = SCENARIOS.filter((s) => ran[s.name]).map((s) => `${s.name} ${ran[s.name]}`);
  console.log(`demo: scenarios ran: ${mix.join(', ')}`);
  console.log(`demo: expected failed workflows: ${expected.failedWorkflows}`);
  console.log('demo: expected first-hand failures by class × source (the Overview matrix):');
  const cells = Object.entries(expected.failures).sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  for (const [cell, n] of cells) {
    const [cls, source] = cell.split('/');
    console.log(`demo:   ${`${cls} × ${source}`.padEnd(24)} ${n}`);
  }
  const failures = cells.reduce((s, [, n]) => s + n, 0);
  const calls = DEMO_SERVICES.reduce((s, name) => s + expected.calls[name], 0);
  const perService = DEMO_SERVICES.map((name) => `${name} ${expected.calls[name]}`).join(', ');
  console.log(
    `demo: expected totals: ${failures} first-hand failures, ${calls} logical calls (${perService}), ${expected.retries} retries`,
  );
}
