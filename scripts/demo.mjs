// `npm run demo`: a fault-injecting workload under the Faultline preload, so the dashboard has
// something to show within a minute. Three services (checkout → inventory, payments) run as child
// processes with `node --import @faultline/instrumentation/register`, calling a local upstream
// HTTP API, PostgreSQL, Redis, MariaDB and the AWS SDK, and export spans to the collector.
//
//   npm run demo [-- --duration 60] [--rate 4] [--otlp http://127.0.0.1:4318] [--quiet] [--no-check]
// (see USAGE). The collector: --otlp, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT,
// else the running Faultline of FAULTLINE_DATA_DIR (the URLs `npm start` records in its data
// directory's lock), else http://127.0.0.1:4318. The base URL and the traces URL `npm start` prints
// are both taken. An ingest token (FAULTLINE_INGEST_TOKEN) is sent as Authorization: Bearer.
// Before it starts, the demo sends an empty export and reads the collector's /healthz counters.
// After the run it prints `demo: sent N workflows (correlation ids demo-<run>-1…N)`, waits for its
// spans to be stored and exits 1, saying what the collector refused, when nothing (or far fewer
// than the run made) was; only when they landed does it print the scenario mix it ran and what the
// dashboard should show for it (from the hand-written expectations in demo/scenarios.mjs):
// first-hand failures by class × source, logical calls and retries.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createFixtures } from './demo/fixtures.mjs';
import {
  checkReceiver,
  exportHeaders,
  normalizeOtlpUrl,
  OTLP_EXAMPLES,
  readCounters,
  refusedDuring,
  waitForLanding,
} from './demo/otlp-target.mjs';
import { DEMO_SERVICES, expectedTotals, SCENARIOS, scenarioCycle } from './demo/scenarios.mjs';
import { startUpstream } from './demo/upstream-server.mjs';

const root = resolve(import.meta.dirname, '..');
const SYNOPSIS =
  'Usage: npm run demo -- [--duration <seconds>] [--rate <workflows/s>] [--otlp <url>] [--quiet] [--no-check]';
const USAGE = `${SYNOPSIS}
  --duration  seconds to run, a number > 0 (default: until Ctrl-C)
  --rate      workflows started per second, a number in (0, 200] (default 4)
  --otlp      where to send spans: ${OTLP_EXAMPLES}
              (default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT, else the running
              Faultline of FAULTLINE_DATA_DIR, else http://127.0.0.1:4318)
  --quiet     only the summary
  --no-check  skip the check, through the collector's /healthz, that the spans were stored
              (for a collector that is not Faultline's)
  FAULTLINE_INGEST_TOKEN  the collector's ingest token, sent as Authorization: Bearer`;

/** A bad flag or setting: the message, the synopsis, exit 2. */
function usageError(message) {
  console.error(`demo: ${message}\n${SYNOPSIS}  (--help explains each)`);
  process.exit(2);
}

/** The run cannot go on or did not do its job: the message, exit 1. */
function abort(message) {
  console.error(`demo: ${message}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      duration: { type: 'string' },
      rate: { type: 'string' },
      otlp: { type: 'string' },
      quiet: { type: 'boolean' },
      'no-check': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  usageError(err.message);
}
if (args.help) {
  console.log(
    `${USAGE}\n\nScenarios:\n${SCENARIOS.map((s) => `  ${s.name.padEnd(22)} ${s.what}`).join('\n')}`,
  );
  process.exit(0);
}

/** A flag's number, or undefined when it is not a finite number (''/'abc'/'Infinity'). */
const numberOf = (raw) =>
  raw !== undefined && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
const duration = args.duration === undefined ? Number.POSITIVE_INFINITY : numberOf(args.duration);
if (!(duration > 0)) usageError(`--duration ${args.duration} is not a number of seconds greater than 0.`);
const rate = args.rate === undefined ? 4 : numberOf(args.rate);
if (!(rate > 0 && rate <= 200))
  usageError(`--rate ${args.rate} is not a number of workflows per second in (0, 200].`);
const check = !args['no-check'];

const log = (line) => {
  if (!args.quiet) console.log(line);
};

// The collector, and where that choice came from (named in every message about it).
const env = process.env;
let target;
let targetFrom;
try {
  if (args.otlp !== undefined) {
    targetFrom = '--otlp';
    target = normalizeOtlpUrl(args.otlp, '--otlp');
  } else if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()) {
    targetFrom = 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
    target = normalizeOtlpUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, targetFrom);
  } else if (env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
    targetFrom = 'OTEL_EXPORTER_OTLP_ENDPOINT';
    target = normalizeOtlpUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT, targetFrom);
  } else {
    const running = await runningFaultline();
    targetFrom = running ? `the running Faultline of ${running.dataDir}` : 'the default';
    target = normalizeOtlpUrl(running?.otlp ?? 'http://127.0.0.1:4318');
  }
} catch (err) {
  usageError(err.message);
}

/** The OTLP URL `npm start` recorded in the lock of FAULTLINE_DATA_DIR, if it runs on this host. */
async function runningFaultline() {
  try {
    const sql = await import('@faultline/sql');
    const dataDir = sql.resolveStoreOptions({}, { ...env, FAULTLINE_CLICKHOUSE_URL: '' }).dataDir;
    const lock = sql.readDirectoryLock(dataDir);
    const otlp = lock?.state === 'alive' ? lock.holder.endpoints?.otlp : undefined;
    return otlp ? { dataDir, otlp } : undefined;
  } catch {
    return undefined;
  }
}

// The services export with the demo's environment: both URL forms, so neither a TRACES_ENDPOINT
// left in the environment nor an exporter appending /v1/traces sends them elsewhere.
const childEnv = {
  ...env,
  OTEL_EXPORTER_OTLP_ENDPOINT: target.base,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: target.traces,
  OTEL_BSP_SCHEDULE_DELAY: env.OTEL_BSP_SCHEDULE_DELAY ?? '1000',
};
const headers = exportHeaders(childEnv);

// Fail early and clearly when nothing (or not a collector) listens, or it refuses the demo.
try {
  await checkReceiver(target, headers);
} catch (err) {
  abort(`${err.message} (the URL came from ${targetFrom})`);
}
let before;
if (check) {
  try {
    before = await readCounters(target.base, headers);
  } catch (err) {
    abort(
      `${err.message}, so the demo cannot check that its spans are stored. Point --otlp at a Faultline collector, or pass --no-check to run without the check.`,
    );
  }
}

try {
  await createFixtures();
} catch (err) {
  abort(err.message);
}
let upstream;
try {
  upstream = await startUpstream();
} catch (err) {
  abort(`the local upstream API could not start: ${err.message}`);
}
const runId = Date.now().toString(36);
const children = [];
/** Services that exited during the run, with their last stderr lines. */
const died = [];
/** Errors a service reported as escaping its handlers (see service-runtime.mjs), by service. */
const escaped = {};
let stopping = false;

function startService(name, serviceEnv) {
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
        env: { ...childEnv, OTEL_SERVICE_NAME: name, UPSTREAM_URL: upstream.url, ...serviceEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let ready = false;
    const lastErr = [];
    createInterface({ input: child.stderr }).on('line', (line) => {
      lastErr.push(line);
      if (lastErr.length > 30) lastErr.shift();
      if (line.startsWith('escaped error (reported')) escaped[name] = (escaped[name] ?? 0) + 1;
      if (!args.quiet) console.error(`[${name}] ${line}`);
    });
    const timer = setTimeout(() => ko(new Error(`service ${name} did not start within 30 s`)), 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready)
        ko(
          new Error(
            `service ${name} exited with ${code ?? signal} before it was ready:\n${lastErr.join('\n')}`,
          ),
        );
      else if (!stopping) {
        // A service gone mid-run fails every later workflow: end the run and say so.
        died.push(`${name} exited with ${code ?? signal} during the run:\n${lastErr.slice(-10).join('\n')}`);
        stopping = true;
      }
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) {
        ready = true;
        clearTimeout(timer);
        ok(`http://127.0.0.1:${m[1]}`);
      } else log(`[${name}] ${line}`);
    });
  });
}

async function stopAll() {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((ok) => {
          if (child.exitCode !== null || child.signalCode !== null) return ok();
          child.once('exit', ok);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  await upstream.close();
}

process.on('SIGINT', () => {
  // The first Ctrl-C ends the run (in-flight workflows finish, spans are checked); a second, now.
  if (stopping) process.exit(130);
  stopping = true;
});

let sent = 0;
const outcomes = { ok: 0, failed: 0 };
const ran = {};
try {
  const [inventory, payments] = await Promise.all([startService('inventory'), startService('payments')]);
  const checkout = await startService('checkout', { INVENTORY_URL: inventory, PAYMENTS_URL: payments });
  log(
    `demo: upstream ${upstream.url}, checkout ${checkout}, exporting to ${target.traces} (from ${targetFrom})`,
  );
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
    // Every outcome is counted, none rejects: a failed workflow is what the demo is for.
    const call = fetch(`${checkout}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-correlation-id': correlationId },
      body: JSON.stringify({ scenario, order: correlationId }),
      signal: AbortSignal.timeout(60_000),
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
  abort(err.message);
}
await stopAll();
console.log(
  `demo: sent ${sent} workflows (correlation ids demo-${runId}-1…${sent}): ${outcomes.ok} succeeded, ${outcomes.failed} failed`,
);
for (const [name, n] of Object.entries(escaped))
  console.error(
    `demo: ${name} reported ${n} error(s) escaping its handlers (the [${name}] lines above); it kept serving`,
  );
if (died.length > 0)
  abort(`a service stopped during the run, so its later workflows failed:\n${died.join('\n')}`);
if (check) await checkLanded();
printExpected();

/**
 * The spans landed: the collector's stored count grew by at least half the run's logical calls
 * (each is at least one client span; server spans and connects come on top), with nothing
 * pending. Other senders to the same collector only add to the count, so this can pass when the
 * demo's own spans were lost among others'; it cannot fail when they landed.
 */
async function checkLanded() {
  const calls = DEMO_SERVICES.reduce((s, name) => s + expectedTotals(ran).calls[name], 0);
  const needed = Math.ceil(calls / 2);
  let r;
  try {
    r = await waitForLanding(target.base, headers, before, calls);
  } catch (err) {
    abort(`after the run, ${err.message}: the demo cannot tell whether its spans were stored.`);
  }
  const refused = refusedDuring(before, r.now);
  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  const sampling =
    sampler && !/^(parentbased_)?always_on$/.test(sampler)
      ? ` OTEL_TRACES_SAMPLER=${sampler} is set: sampled-out traces are not sent.`
      : '';
  const problems = r.now.problems.length > 0 ? ` The collector says: ${r.now.problems.join('; ')}.` : '';
  if (r.restarted)
    abort(
      `the collector at ${target.base} restarted during the run (its counters started again), so the demo cannot tell what it stored; run the demo again.`,
    );
  if (r.accepted <= 0)
    abort(
      `nothing the demo sent was stored: the collector at ${target.base} accepted no span during the run` +
        `${refused ? ` and refused requests (${refused})` : ''}.` +
        (refused.includes('401') || refused.includes('403')
          ? ' Set FAULTLINE_INGEST_TOKEN to its ingest token.'
          : ` Check that the services can reach ${target.traces} (the [service] lines above).`) +
        sampling,
    );
  if (r.stored < needed)
    abort(
      `far fewer spans were stored than the run made: the collector at ${target.base} stored ${r.stored} and accepted ${r.accepted} during the run, ` +
        `where the run's ${calls} logical calls make at least ${calls} spans` +
        `${r.now.pending > 0 ? `; ${r.now.pending} acknowledged spans still wait for their insert` : ''}` +
        `${refused ? `; it refused requests (${refused})` : ''}.${problems}${sampling}`,
    );
  console.log(
    `demo: the collector stored ${r.stored} spans during the run (the run's ${calls} logical calls make at least ${calls})`,
  );
}

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
