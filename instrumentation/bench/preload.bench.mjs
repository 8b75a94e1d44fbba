// Cost of the Faultline preload on a real HTTP service, against stock OpenTelemetry.
// One service (lib/preload-service.mjs: a node:http server that calls a local upstream for every
// request) runs, per workload, under each arm. Workloads: `fail20`, 1 upstream call in 5 answers
// 503 with a small JSON error and the service answers 502 for it (the failure path); `json10`,
// every call succeeds and 1 in 10 answers a small JSON body, the rest text (the body-peek path).
// Each in two service shapes: the plain names `require` node:http and call the upstream with
// http.get over keep-alive; the `-fetch` ones are the ES module issue 28 measured, `import http
// from 'node:http'` for the server and global `fetch` (undici) for the upstream call.
// Arms: no instrumentation, `--import @opentelemetry/auto-instrumentations-node/register`,
// `--import @faultline/instrumentation/register`, and the same with FAULTLINE_BODY_PEEK=off. For
// the fetch shape stock also gets OpenTelemetry's ESM loader hook
// (`--experimental-loader=@opentelemetry/instrumentation/hook.mjs`), without which it does not see
// the ES module's import of node:http. The stock and Faultline arms do the same OpenTelemetry work
// apart from Faultline's own: the same instrumentations, auto-instrumentations-node's default set
// with `dns` and `net` off in both (the preload's default: instrumentations.ts QUIET_BY_DEFAULT;
// Faultline adds its own for postgres, better-sqlite3, nats and mqtt, which patch nothing here),
// the same resource detectors, the same W3C tracecontext + baggage propagation, and the same export
// path (OTLP/HTTP protobuf to one local sink that answers 200, batches of 512 every 1 s, queue 2048).
// The sink counts what each arm exports, bytes and spans by scope and kind, so a difference in
// exported bytes, an arm that traces less (the comparison is then unfair, and says so) or spans
// dropped on a full queue are visible.
// Two load shapes per arm and round, from a separate load-generator process:
// - closed loop: BENCH_CONNECTIONS keep-alive connections, each sends when the last answered;
//   gives throughput and CPU per request (its latencies are mostly queueing on a 2-core box);
// - open loop: BENCH_RATE requests per second on a fixed schedule, latency measured from the
//   scheduled send time (no coordinated omission); at a moderate rate this is the latency a
//   request actually gains from the preload.
// Each start of the service also gives its startup time (spawn to its first line, printed once
// it listens) and its resident set size right after it listens.
// Arms are interleaved over rounds to spread the noise of this shared machine; figures are
// medians over rounds. The closed loop's CPU is split into the service's main thread and its other
// threads (V8's GC and compiler workers, libuv's pool). After each workload, one more closed-loop
// run of stock and of faultline with V8's sampling profiler on inside the service prints each
// arm's main-thread time per request by owner (OpenTelemetry, faultline's own code, the service,
// node, GC) and faultline's own functions: where the difference between the two arms goes.
// Roles: default = orchestrator; `load`, `sink`, `upstream` = child processes of this file; the
// service is lib/preload-service.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { countSpans } from './lib/otlp-spans.mjs';

const SELF = fileURLToPath(import.meta.url);
const SERVICE = fileURLToPath(new URL('lib/preload-service.mjs', import.meta.url));
const PKG = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WARMUP_SECONDS = 1;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const RATE = Number(process.env.BENCH_RATE ?? 200);
/** Every nth upstream call fails (0: none) / answers a small JSON body (0: none); the rest answer text. */
const WORKLOADS = {
  fail20: { shape: 'http', failEvery: 5, jsonEvery: 0, arms: ['none', 'stock', 'faultline'] },
  json10: {
    shape: 'http',
    failEvery: 0,
    jsonEvery: 10,
    arms: ['none', 'stock', 'faultline', 'faultline-nopeek'],
  },
  'fail20-fetch': { shape: 'fetch', failEvery: 5, jsonEvery: 0, arms: ['none', 'stock', 'faultline'] },
  'json10-fetch': {
    shape: 'fetch',
    failEvery: 0,
    jsonEvery: 10,
    arms: ['none', 'stock', 'faultline', 'faultline-nopeek'],
  },
};
/** What the stock arm needs, per service shape, to trace what the preload traces. */
const STOCK_SHAPE_ARGS = {
  http: [],
  fetch: [
    '--experimental-loader=@opentelemetry/instrumentation/hook.mjs',
    // Node 20 warns once per start that --experimental-loader may go away.
    '--disable-warning=ExperimentalWarning',
  ],
};
/** faultline/stock: throughput at least, CPU per request and exported bytes per request at most; added open-loop median latency at most. */
const TARGETS = { throughput: 0.95, cpu: 1.05, addedLatencyUs: 25, bytes: 1.2 };
/** BENCH_PROFILE=off skips the profiled closed-loop run of stock and faultline after each workload. */
const PROFILE = process.env.BENCH_PROFILE !== 'off';
/** BENCH_PROFILE_DIFF=N also prints the N functions whose self time per request differs most between the two arms. */
const PROFILE_DIFF = Number(process.env.BENCH_PROFILE_DIFF ?? 0);

const role = process.argv[2] ?? 'orchestrator';
if (role === 'upstream') upstream();
else if (role === 'sink') sink();
else if (role === 'load') await load();
else await orchestrate();

function listen(server) {
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
}

function upstream() {
  const answers = {
    '/ok': [200, 'text/plain', 'ok'],
    '/json': [200, 'application/json', '{"ok":true,"id":4217,"status":"settled"}'],
    '/fail': [503, 'application/json', '{"error":"unavailable"}'],
  };
  listen(
    http.createServer((req, res) => {
      const [status, type, body] = answers[req.url] ?? answers['/ok'];
      res.writeHead(status, { 'content-type': type, 'content-length': String(body.length) });
      res.end(body);
    }),
  );
}

/** Answers every export 200 and counts them: requests, bytes on the wire, spans by scope and kind. */
function sink() {
  let requests = 0;
  let bytes = 0;
  const spans = {};
  listen(
    http.createServer((req, res) => {
      if (req.url === '/stats') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ requests, bytes, spans }));
        return;
      }
      const chunks = [];
      req.on('data', (c) => {
        bytes += c.length;
        chunks.push(c);
      });
      req.on('end', () => {
        requests += 1;
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        if (String(req.headers['content-type']).includes('protobuf'))
          for (const [key, count] of Object.entries(countSpans(body))) spans[key] = (spans[key] ?? 0) + count;
        res
          .writeHead(200, { 'content-type': String(req.headers['content-type'] ?? 'application/x-protobuf') })
          .end();
      });
    }),
  );
}

async function load() {
  const url = process.env.TARGET_URL;
  const rate = Number(process.env.LOAD_RATE ?? 0);
  const latencies = [];
  const state = { measuring: false, stop: false };
  const agent = new http.Agent({ keepAlive: true, maxSockets: rate > 0 ? 256 : CONNECTIONS });
  let total = 0;
  const one = () =>
    new Promise((resolve) => {
      const counted = state.measuring;
      const sentAt = process.hrtime.bigint();
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            total += 1;
            if (counted) latencies.push(Number(process.hrtime.bigint() - sentAt) / 1000);
            resolve();
          });
        })
        .on('error', resolve);
    });
  const running = rate > 0 ? openLoop(rate, one, state) : closedLoop(one, state);
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  console.log(JSON.stringify({ phase: 'measure' }));
  state.measuring = true;
  const start = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  state.measuring = false;
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  state.stop = true;
  await running;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  console.log(
    JSON.stringify({
      phase: 'done',
      n: latencies.length,
      rps: latencies.length / elapsed,
      p50: at(0.5),
      p99: at(0.99),
      total,
    }),
  );
  agent.destroy();
}

/** Keep-alive closed loop: each connection sends its next request when the previous answers. */
async function closedLoop(one, state) {
  const worker = async () => {
    while (!state.stop) await one();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/**
 * Open loop: requests leave on a fixed schedule whatever the service's pace, so one slow answer
 * cannot hold back the requests behind it. At a moderate rate nothing queues, and latency is
 * timed from the actual send, leaving out this process's own timer lateness.
 */
async function openLoop(rate, one, state) {
  const interval = BigInt(Math.round(1e9 / rate));
  const pending = new Set();
  let next = process.hrtime.bigint();
  while (!state.stop) {
    const now = process.hrtime.bigint();
    while (next <= now) {
      const p = one();
      pending.add(p);
      p.then(() => pending.delete(p));
      next += interval;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
}

function startChild(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: PKG,
    env: { PATH: process.env.PATH, BENCH_PROFILE_DIFF: String(PROFILE_DIFF), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = [];
  const waiters = [];
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    let nl = out.indexOf('\n');
    while (nl >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      if (line.startsWith('{')) {
        const msg = JSON.parse(line);
        const waiter = waiters.shift();
        if (waiter) waiter(msg);
        else lines.push(msg);
      }
      nl = out.indexOf('\n');
    }
  });
  /** The next JSON line the child prints. */
  const next = () => (lines.length ? Promise.resolve(lines.shift()) : new Promise((r) => waiters.push(r)));
  const firstLine = next();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { child, firstLine, next, exited };
}

/**
 * User + system CPU time of a process so far, in microseconds (Linux /proc, 100 Hz ticks): its
 * main thread (JavaScript) and the rest (V8's GC and compiler threads, libuv's pool) apart.
 */
function cpuMicros(pid) {
  const ticks = (path) => {
    const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  };
  try {
    const total = ticks(`/proc/${pid}/stat`);
    const main = ticks(`/proc/${pid}/task/${pid}/stat`);
    return { total, main, other: total - main };
  } catch {
    return { total: Number.NaN, main: Number.NaN, other: Number.NaN };
  }
}

/** Export requests, bytes and spans (by '<scope> <kind>') the sink has received so far. */
async function sinkStats(sinkUrl) {
  const res = await fetch(`${sinkUrl}/stats`);
  return res.json();
}

/**
 * Starts the service under an arm. Its startup time runs from the spawn to its first line, which it
 * prints once it listens, with its resident set size at that moment.
 */
async function startService(arm, env) {
  const spawnedAt = process.hrtime.bigint();
  const svc = startChild([...arm.args, SERVICE], { ...arm.env, ...env });
  const { port, rss } = await svc.firstLine;
  const startupMs = Number(process.hrtime.bigint() - spawnedAt) / 1e6;
  return { svc, target: `http://127.0.0.1:${port}/`, startupMs, rssMb: rss / 2 ** 20 };
}

async function stopService(svc) {
  // Stock's register flushes on SIGTERM but leaves the server running: kill it after a moment.
  svc.child.kill('SIGTERM');
  const killer = setTimeout(() => svc.child.kill('SIGKILL'), 1000);
  await svc.exited;
  clearTimeout(killer);
}

/** One closed-loop run with the service's profiler on over the measured window (lib/preload-service.mjs). */
async function profileArm(arm, env) {
  const { svc, target } = await startService(arm, env);
  const ld = startChild([SELF, 'load'], {
    TARGET_URL: target,
    BENCH_SECONDS: String(SECONDS),
    BENCH_CONNECTIONS: String(CONNECTIONS),
    LOAD_RATE: '0',
  });
  await ld.firstLine;
  await fetch(`${target}__bench/profile/start`);
  await ld.next();
  const answer = await (await fetch(`${target}__bench/profile/stop`)).json();
  await ld.exited;
  await stopService(svc);
  return answer;
}

/** One load run against the service; CPU is the service's, over the measured window. */
async function measure(svc, target, rate) {
  const ld = startChild([SELF, 'load'], {
    TARGET_URL: target,
    BENCH_SECONDS: String(SECONDS),
    BENCH_CONNECTIONS: String(CONNECTIONS),
    LOAD_RATE: String(rate),
  });
  await ld.firstLine;
  const cpu0 = cpuMicros(svc.child.pid);
  const done = await ld.next();
  const cpu1 = cpuMicros(svc.child.pid);
  await ld.exited;
  return {
    ...done,
    cpuPerReq: (cpu1.total - cpu0.total) / done.n,
    mainPerReq: (cpu1.main - cpu0.main) / done.n,
    otherPerReq: (cpu1.other - cpu0.other) / done.n,
  };
}

async function orchestrate() {
  if (!existsSync(`${PKG}dist/register.js`)) {
    spawnSync('npm', ['run', 'build', '-w', '@faultline/instrumentation'], {
      cwd: `${PKG}..`,
      stdio: 'inherit',
    });
  }
  const up = startChild([SELF, 'upstream']);
  const sk = startChild([SELF, 'sink']);
  const upstreamUrl = `http://127.0.0.1:${(await up.firstLine).port}`;
  const sinkUrl = `http://127.0.0.1:${(await sk.firstLine).port}`;
  // What both instrumented arms share, so only Faultline's own work differs between them.
  const otelEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_SERVICE_NAME: 'bench-service',
    // auto-instrumentations-node's default set in both; the preload leaves dns and net off unless
    // enabled, stock is told to.
    OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'dns,net',
    OTEL_BSP_MAX_QUEUE_SIZE: '2048',
  };
  const arms = {
    none: { args: [], env: {} },
    stock: {
      args: ['--import', '@opentelemetry/auto-instrumentations-node/register'],
      env: {
        ...otelEnv,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        // Faultline's detectors and propagators; its processor sends 512-span batches every 1 s.
        OTEL_NODE_RESOURCE_DETECTORS: 'env,host,process',
        OTEL_PROPAGATORS: 'tracecontext,baggage',
        OTEL_BSP_SCHEDULE_DELAY: '1000',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512',
      },
    },
    faultline: { args: ['--import', '@faultline/instrumentation/register'], env: otelEnv },
    // The same preload with silent-failure detection off: what peeking small JSON bodies costs.
    'faultline-nopeek': {
      args: ['--import', '@faultline/instrumentation/register'],
      env: { ...otelEnv, FAULTLINE_BODY_PEEK: 'off' },
    },
  };
  console.log(
    `preload bench: ${ROUNDS} rounds x ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up) per arm and load shape; ` +
      `closed loop ${CONNECTIONS} keep-alive connections, open loop ${RATE} req/s`,
  );
  const verdicts = [];
  const unfair = [];
  // BENCH_WORKLOADS=fail20 runs a subset (while iterating; a full run prints every target).
  const only = (process.env.BENCH_WORKLOADS ?? '').split(',').filter(Boolean);
  const chosen = Object.entries(WORKLOADS).filter(([name]) => only.length === 0 || only.includes(name));
  for (const [workload, { shape, failEvery, jsonEvery, arms: armNames }] of chosen) {
    const results = Object.fromEntries(armNames.map((k) => [k, []]));
    const workloadEnv = {
      UPSTREAM_URL: upstreamUrl,
      FAIL_EVERY: String(failEvery),
      JSON_EVERY: String(jsonEvery),
      SERVICE_SHAPE: shape,
    };
    const shapeArms = {
      ...arms,
      stock: { ...arms.stock, args: [...STOCK_SHAPE_ARGS[shape], ...arms.stock.args] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order so no arm always runs first (or last) on a warming machine.
      const order = armNames.map((_, i) => armNames[(i + round) % armNames.length]);
      for (const name of order) {
        const sink0 = await sinkStats(sinkUrl);
        const { svc, target, startupMs, rssMb } = await startService(shapeArms[name], workloadEnv);
        const closed = await measure(svc, target, 0);
        const open = await measure(svc, target, RATE);
        await stopService(svc);
        const sink1 = await sinkStats(sinkUrl);
        // Every request the service answered in both runs, warm-ups included, exported its spans.
        const served = closed.total + open.total;
        const spansPerReq = Object.fromEntries(
          Object.entries(sink1.spans).map(([key, count]) => [
            key,
            (count - (sink0.spans[key] ?? 0)) / served,
          ]),
        );
        results[name].push({
          closed,
          open,
          startupMs,
          rssMb,
          exportBytesPerReq: (sink1.bytes - sink0.bytes) / served,
          spansPerReq,
        });
      }
    }
    const description = [
      shape === 'fetch'
        ? 'ES module, global fetch upstream (stock with the ESM loader hook)'
        : 'require(node:http), http.get upstream',
      failEvery ? `1 upstream call in ${failEvery} answers 503 (the service answers 502)` : '',
      jsonEvery ? `1 upstream call in ${jsonEvery} answers a small JSON body` : '',
    ]
      .filter(Boolean)
      .join('; ');
    verdicts.push(...report(workload, description, results));
    reportStartup(results);
    if (!reportSpans(results)) unfair.push(workload);
    if (PROFILE) {
      const profiles = {};
      for (const name of ['stock', 'faultline'])
        profiles[name] = await profileArm(shapeArms[name], workloadEnv);
      reportProfile(workload, profiles);
    }
  }
  up.child.kill('SIGTERM');
  sk.child.kill('SIGTERM');
  const missed = verdicts.filter((v) => !v.met);
  console.log(
    `\npreload targets: ${verdicts.length - missed.length} of ${verdicts.length} met` +
      (missed.length ? `; NOT met: ${missed.map((v) => v.name).join(', ')}` : ''),
  );
  if (unfair.length)
    console.log(
      `UNFAIR comparison in ${unfair.join(', ')}: stock exported fewer spans per request than faultline there`,
    );
}

/** Where each arm's main-thread CPU went in the profiled run, per request, by owner. */
function reportProfile(workload, profiles) {
  const owners = ['opentelemetry', 'faultline', 'service', 'node', 'gc', 'program', 'other'];
  console.log(
    `[${workload}] profile, closed loop, main thread, µs per request by owner (node's own frames count for their caller, but fetch's undici for node):`,
  );
  console.log(`${'arm'.padEnd(10)} ${owners.map((o) => o.padStart(13)).join('')}        total   requests`);
  const totals = {};
  for (const [name, { owners: perRequest, requests }] of Object.entries(profiles)) {
    totals[name] = Object.values(perRequest).reduce((a, b) => a + b, 0);
    console.log(
      `${name.padEnd(10)} ${owners.map((o) => (perRequest[o] ?? 0).toFixed(1).padStart(13)).join('')} ${totals[name].toFixed(1).padStart(12)} ${String(requests).padStart(10)}`,
    );
  }
  const f = profiles.faultline.owners;
  const k = profiles.stock.owners;
  const diff = totals.faultline - totals.stock;
  const own = f.faultline ?? 0;
  console.log(
    `faultline - stock: ${diff >= 0 ? '+' : ''}${diff.toFixed(1)} µs/req on the main thread, of which faultline's own code ${own.toFixed(1)} µs, ` +
      `opentelemetry ${((f.opentelemetry ?? 0) - (k.opentelemetry ?? 0)).toFixed(1)}, node ${((f.node ?? 0) - (k.node ?? 0)).toFixed(1)}, gc ${((f.gc ?? 0) - (k.gc ?? 0)).toFixed(1)}`,
  );
  for (const name of ['stock', 'faultline'])
    console.log(
      `${name}: opentelemetry by package, µs/req: ${profiles[name].otelTop.map(([pkg, us]) => `${pkg} ${us.toFixed(1)}`).join(', ')}`,
    );
  if (PROFILE_DIFF) {
    const a = profiles.stock.selfByFrame;
    const b = profiles.faultline.selfByFrame;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    const rows = keys.map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0), a[k] ?? 0, b[k] ?? 0]);
    rows.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]));
    console.log('self time per request, faultline - stock (stock, faultline) µs:');
    for (const [k, d, x, y] of rows.slice(0, PROFILE_DIFF))
      console.log(
        `  ${d >= 0 ? '+' : ''}${d.toFixed(2).padStart(7)} (${x.toFixed(2)}, ${y.toFixed(2)}) ${k}`,
      );
  }
  console.log(
    `reference JSON.parse of a ${profiles.stock.referenceBytes}-byte body, timed inside each request vs in a hot loop, same process: ${[
      'stock',
      'faultline',
    ]
      .map((name) => {
        const { referenceInFlowNs: flow, referenceHotNs: hot } = profiles[name];
        return `${name} ${flow.toFixed(0)} ns vs ${hot.toFixed(0)} ns (${(flow / hot).toFixed(1)}x)`;
      })
      .join(
        ', ',
      )}: code runs that much slower in the request flow here, so a hot-loop ns (span-processor, classifier benches) costs that many times more per request`,
  );
  console.log(
    `faultline's own code by function, µs/req: ${profiles.faultline.faultlineTop.map(([fn, us]) => `${fn} ${us.toFixed(1)}`).join(', ')}`,
  );
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Per-round faultline/stock figures: the arms of one round ran back to back, so the load other
 * processes put on this machine, which drifts between rounds, mostly cancels out of them. */
function paired(results, pick, combine) {
  return median(results.faultline.map((r, i) => combine(pick(r), pick(results.stock[i]))));
}

function report(workload, description, results) {
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      {
        rps: median(runs.map((r) => r.closed.rps)),
        p50: median(runs.map((r) => r.closed.p50)),
        p99: median(runs.map((r) => r.closed.p99)),
        cpu: median(runs.map((r) => r.closed.cpuPerReq)),
        main: median(runs.map((r) => r.closed.mainPerReq)),
        other: median(runs.map((r) => r.closed.otherPerReq)),
        openP50: median(runs.map((r) => r.open.p50)),
        openP99: median(runs.map((r) => r.open.p99)),
        openCpu: median(runs.map((r) => r.open.cpuPerReq)),
        bytes: median(runs.map((r) => r.exportBytesPerReq)),
      },
    ]),
  );
  const col = (v, w) => v.toFixed(0).padStart(w);
  console.log(`\n[${workload}] ${description} (medians over ${ROUNDS} rounds)`);
  console.log(
    'closed loop        req/s  median µs   p99 µs  CPU µs/req (main  other) | open loop  median µs   p99 µs  CPU µs/req | export B/req',
  );
  for (const [name, s] of Object.entries(summary)) {
    console.log(
      `${name.padEnd(16)} ${col(s.rps, 7)} ${col(s.p50, 10)} ${col(s.p99, 8)} ${col(s.cpu, 11)} (${col(s.main, 4)} ${col(s.other, 6)}) |           ${col(s.openP50, 10)} ${col(s.openP99, 8)} ${col(s.openCpu, 11)} | ${col(s.bytes, 12)}`,
    );
  }
  const ratio = (a, b) => a / b;
  const figures = {
    throughput: paired(results, (r) => r.closed.rps, ratio),
    cpuClosed: paired(results, (r) => r.closed.cpuPerReq, ratio),
    cpuOpen: paired(results, (r) => r.open.cpuPerReq, ratio),
    addedUs: paired(
      results,
      (r) => r.open.p50,
      (a, b) => a - b,
    ),
    bytes: paired(results, (r) => r.exportBytesPerReq, ratio),
  };
  const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
  const verdicts = [
    {
      name: `${workload} throughput`,
      met: figures.throughput >= TARGETS.throughput,
      line: `faultline/stock throughput (closed loop): ${figures.throughput.toFixed(3)}x (target >= ${TARGETS.throughput.toFixed(2)}x)`,
    },
    {
      name: `${workload} CPU closed`,
      met: figures.cpuClosed <= TARGETS.cpu,
      line: `service CPU per request faultline/stock, closed loop: ${figures.cpuClosed.toFixed(3)}x (target <= ${TARGETS.cpu.toFixed(2)}x)`,
    },
    {
      name: `${workload} CPU open`,
      met: figures.cpuOpen <= TARGETS.cpu,
      line: `service CPU per request faultline/stock, open loop at ${RATE} req/s: ${figures.cpuOpen.toFixed(3)}x (target <= ${TARGETS.cpu.toFixed(2)}x)`,
    },
    {
      name: `${workload} added latency`,
      met: figures.addedUs <= TARGETS.addedLatencyUs,
      line: `faultline added median latency vs stock at ${RATE} req/s (open loop): ${signed(figures.addedUs)} µs (target <= ${TARGETS.addedLatencyUs} µs)`,
    },
    {
      name: `${workload} exported bytes`,
      met: figures.bytes <= TARGETS.bytes,
      line: `exported bytes per request faultline/stock: ${figures.bytes.toFixed(3)}x (target <= ${TARGETS.bytes.toFixed(2)}x)`,
    },
  ];
  // The rounds themselves, so a reader sees the spread the medians summarize.
  for (const [name, runs] of Object.entries(results))
    console.log(
      `${name.padEnd(16)} rounds, closed loop req/s / CPU µs per request: ${runs.map((r) => `${r.closed.rps.toFixed(0)}/${r.closed.cpuPerReq.toFixed(0)}`).join(' ')}`,
    );
  console.log('(faultline/stock: median over rounds of the per-round figure)');
  for (const v of verdicts) console.log(`${v.line}: ${v.met ? 'met' : 'NOT met'}`);
  const { faultline: f, none: n, stock: k, 'faultline-nopeek': np } = summary;
  if (np) {
    console.log(
      `with FAULTLINE_BODY_PEEK=off: throughput ${(np.rps / k.rps).toFixed(3)}x stock, ` +
        `CPU per request closed ${(np.cpu / k.cpu).toFixed(3)}x stock (the cost of silent-failure detection is the difference)`,
    );
  }
  console.log(
    `faultline vs no instrumentation: ${(f.rps / n.rps).toFixed(3)}x throughput, ` +
      `${signed(f.openP50 - n.openP50)} µs median at ${RATE} req/s; stock vs none ${(k.rps / n.rps).toFixed(3)}x throughput`,
  );
  return verdicts;
}

/** Startup (spawn to listening) and RSS right after listening, medians over rounds, each arm beside stock and none. */
function reportStartup(results) {
  const of = (name) =>
    results[name] && {
      ms: median(results[name].map((r) => r.startupMs)),
      mb: median(results[name].map((r) => r.rssMb)),
    };
  const stock = of('stock');
  const none = of('none');
  console.log('startup, spawn to listening, and RSS right after listening (medians over rounds):');
  for (const name of Object.keys(results)) {
    const { ms, mb } = of(name);
    const beside = (pick, digits) =>
      name === 'none'
        ? ''
        : ` (${name === 'stock' ? '' : `stock ${pick(stock).toFixed(digits)}, `}none ${pick(none).toFixed(digits)})`;
    console.log(
      `${name.padEnd(16)} startup ${ms.toFixed(0).padStart(5)} ms${beside((a) => a.ms, 0).padEnd(24)} RSS ${mb.toFixed(1).padStart(6)} MB${beside((a) => a.mb, 1)}`,
    );
  }
}

/**
 * What each instrumented arm exported per request, by instrumentation scope and span kind (medians
 * over rounds), and whether stock traced as much as faultline: false when it exported fewer spans
 * per request, which makes every faultline/stock ratio of the workload flatter stock.
 */
function reportSpans(results) {
  const summary = {};
  for (const [name, runs] of Object.entries(results)) {
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r.spansPerReq)))].sort();
    const byKey = Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r.spansPerReq[k] ?? 0))]));
    const total = median(runs.map((r) => Object.values(r.spansPerReq).reduce((a, b) => a + b, 0)));
    const byKind = {};
    for (const [key, perReq] of Object.entries(byKey)) {
      const kind = key.slice(key.lastIndexOf(' ') + 1);
      byKind[kind] = (byKind[kind] ?? 0) + perReq;
    }
    summary[name] = { byKey, byKind, total };
  }
  console.log('spans exported per request, at the sink (scope kind: spans per request):');
  for (const [name, { byKey, total }] of Object.entries(summary)) {
    if (name === 'none' && total === 0) continue;
    const detail = Object.entries(byKey)
      .filter(([, perReq]) => perReq > 0)
      .map(([key, perReq]) => `${key} ${perReq.toFixed(2)}`)
      .join(', ');
    console.log(`${name.padEnd(16)} ${total.toFixed(2)}${detail ? `: ${detail}` : ''}`);
  }
  const { stock, faultline } = summary;
  const kinds = (s) =>
    Object.entries(s.byKind)
      .map(([kind, perReq]) => `${kind} ${perReq.toFixed(2)}`)
      .join(', ');
  // 1% of slack: a batch lost at the very end of a run is not a different instrumentation.
  const short = Object.entries(faultline.byKind).filter(([kind, f]) => (stock.byKind[kind] ?? 0) < f * 0.99);
  if (stock.total < faultline.total * 0.99 || short.length) {
    console.log(
      `UNFAIR: stock exported fewer spans per request than faultline (${stock.total.toFixed(2)}: ${kinds(stock) || 'none'} ` +
        `vs ${faultline.total.toFixed(2)}: ${kinds(faultline)}): stock does less OpenTelemetry work here, so the ` +
        'faultline/stock ratios above flatter stock',
    );
    return false;
  }
  const fewer = faultline.total < stock.total * 0.99;
  console.log(
    fewer
      ? `faultline exported fewer spans per request than stock (${faultline.total.toFixed(2)}: ${kinds(faultline)} vs ${stock.total.toFixed(2)}: ${kinds(stock)})`
      : `stock traced as faultline did: ${stock.total.toFixed(2)} spans per request (${kinds(stock)})`,
  );
  return true;
}
