// Cost of the Faultline preload on a real HTTP service, against stock OpenTelemetry.
// One service (node:http server that calls a local upstream over keep-alive) runs, per workload,
// under each arm. Workloads: `fail20`, 1 upstream call in 5 answers 503 with a small JSON error and
// the service answers 502 for it (the failure path); `json10`, every call succeeds and 1 in 10
// answers a small JSON body, the rest text (the body-peek path). Arms: no instrumentation, `--import @opentelemetry/auto-instrumentations-node/register`,
// `--import @faultline/instrumentation/register`, and the same with FAULTLINE_BODY_PEEK=off. The stock and Faultline arms do the same
// OpenTelemetry work apart from Faultline's own: the same eight instrumentations enabled (stock
// would otherwise load all ~40 of auto-instrumentations-node), the same resource detectors, the
// same W3C tracecontext + baggage propagation, and the same export path (OTLP/HTTP protobuf to one
// local sink that answers 200, batches of 512 every 1 s, queue 2048). The sink counts what each arm
// exports, so a difference in exported bytes (or spans dropped on a full queue) is visible.
// Two load shapes per arm and round, from a separate load-generator process:
// - closed loop: BENCH_CONNECTIONS keep-alive connections, each sends when the last answered;
//   gives throughput and CPU per request (its latencies are mostly queueing on a 2-core box);
// - open loop: BENCH_RATE requests per second on a fixed schedule, latency measured from the
//   scheduled send time (no coordinated omission); at a moderate rate this is the latency a
//   request actually gains from the preload.
// Arms are interleaved over rounds to spread the noise of this shared machine; figures are
// medians over rounds. The closed loop's CPU is split into the service's main thread and its other
// threads (V8's GC and compiler workers, libuv's pool). After each workload, one more closed-loop
// run of stock and of faultline with V8's sampling profiler on inside the service prints each
// arm's main-thread time per request by owner (OpenTelemetry, faultline's own code, the service,
// node, GC) and faultline's own functions: where the difference between the two arms goes.
// Roles (one file): default = orchestrator; `service`, `load`, `sink`, `upstream` = child processes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const PKG = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WARMUP_SECONDS = 1;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const RATE = Number(process.env.BENCH_RATE ?? 200);
/** Every nth upstream call fails (0: none) / answers a small JSON body (0: none); the rest answer text. */
const WORKLOADS = {
  fail20: { failEvery: 5, jsonEvery: 0, arms: ['none', 'stock', 'faultline'] },
  json10: { failEvery: 0, jsonEvery: 10, arms: ['none', 'stock', 'faultline', 'faultline-nopeek'] },
};
const TARGETS = { throughput: 1.0, cpu: 1.0, addedLatencyUs: 25, bytes: 1.2 };
/** BENCH_PROFILE=off skips the profiled closed-loop run of stock and faultline after each workload. */
const PROFILE = process.env.BENCH_PROFILE !== 'off';
/** BENCH_PROFILE_DIFF=N also prints the N functions whose self time per request differs most between the two arms. */
const PROFILE_DIFF = Number(process.env.BENCH_PROFILE_DIFF ?? 0);
/** A small JSON error body like the upstream's, for the reference timing (see serviceProfiler). */
const REFERENCE_BODY = '{"error":{"message":"upstream failed","code":"unavailable","retryable":true}}';
const reference = { sink: undefined };

const role = process.argv[2] ?? 'orchestrator';
if (role === 'upstream') upstream();
else if (role === 'sink') sink();
else if (role === 'service') service();
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

function sink() {
  let requests = 0;
  let bytes = 0;
  listen(
    http.createServer((req, res) => {
      if (req.url === '/stats') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requests, bytes }));
        return;
      }
      req.on('data', (c) => {
        bytes += c.length;
      });
      req.on('end', () => {
        requests += 1;
        res
          .writeHead(200, { 'content-type': String(req.headers['content-type'] ?? 'application/x-protobuf') })
          .end();
      });
    }),
  );
}

function service() {
  // Lets a profiler run (`--cpu-prof`) end with a normal exit, which writes the profile.
  process.on('SIGUSR2', () => process.exit(0));
  // `require`d on purpose: stock auto-instrumentations-node/register registers no ESM loader
  // hook, so an ESM `import http from 'node:http'` leaves its spans out entirely and the stock
  // arm would measure nothing. Through require both preloads instrument the same calls.
  const http = createRequire(import.meta.url)('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = process.env.UPSTREAM_URL;
  const failEvery = Number(process.env.FAIL_EVERY);
  const jsonEvery = Number(process.env.JSON_EVERY);
  let n = 0;
  const profiler = serviceProfiler(() => n);
  listen(
    http.createServer((req, res) => {
      if (req.url.startsWith('/__bench/profile/')) {
        profiler(req.url.slice('/__bench/profile/'.length)).then((answer) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? {})),
        );
        return;
      }
      n += 1;
      if (profiler.timing) profiler.timeReference();
      const path =
        failEvery && n % failEvery === 0 ? '/fail' : jsonEvery && n % jsonEvery === 0 ? '/json' : '/ok';
      http
        .get(`${target}${path}`, { agent }, (up) => {
          let body = '';
          up.setEncoding('utf8');
          up.on('data', (c) => {
            body += c;
          });
          up.on('end', () => {
            res.writeHead(up.statusCode === 200 ? 200 : 502, { 'content-type': 'text/plain' }).end(body);
          });
        })
        .on('error', () => res.writeHead(500).end());
    }),
  );
}

/**
 * The `/__bench/profile/start|stop` answers: V8's sampling profiler over a window of the closed
 * loop, each sample's time given to the nearest frame that belongs to a package (node's own frames
 * count for whoever called them), per request of the window. The same code runs in every arm.
 */
function serviceProfiler(requests) {
  let session;
  let startedAt = 0;
  // The reference: one fixed small JSON.parse, timed inside each request of the profiled window
  // only (so the measured runs carry no extra work) and then in a hot loop in the same process.
  // Their ratio is how much slower the same code runs in the request flow on this machine (cold
  // caches between requests), which is how a hot-loop figure (the span-processor bench, the
  // classifiers') turns into µs per request here.
  const samples = new Float64Array(1 << 16);
  let taken = 0;
  const timeReference = () => {
    const t0 = process.hrtime.bigint();
    reference.sink = JSON.parse(REFERENCE_BODY);
    if (taken < samples.length) samples[taken++] = Number(process.hrtime.bigint() - t0);
  };
  const referenceFigures = () => {
    const inFlow = median(Array.from(samples.subarray(0, taken)));
    const hot = [];
    for (let round = 0; round < 9; round++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 10_000; i++) reference.sink = JSON.parse(REFERENCE_BODY);
      hot.push(Number(process.hrtime.bigint() - t0) / 10_000);
    }
    return { referenceInFlowNs: inFlow, referenceHotNs: median(hot) };
  };
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, v) => (err ? reject(err) : resolve(v))),
    );
  const profiler = async (command) => {
    if (command === 'start') {
      taken = 0;
      profiler.timing = true;
      const { Session } = await import('node:inspector');
      session = new Session();
      session.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 250 });
      await post('Profiler.start');
      startedAt = requests();
      return {};
    }
    const { profile } = await post('Profiler.stop');
    profiler.timing = false;
    session.disconnect();
    const n = requests() - startedAt;
    return { requests: n, ...attribute(profile, n), ...referenceFigures() };
  };
  profiler.timing = false;
  profiler.timeReference = timeReference;
  return profiler;
}

function ownerOf(url) {
  if (url.includes('/@faultline/instrumentation/') || url.includes('/instrumentation/dist/'))
    return 'faultline';
  if (url.includes('/@opentelemetry/')) return 'opentelemetry';
  if (url.includes('preload.bench.mjs')) return 'service';
  if (url === '' || url.startsWith('node:')) return undefined;
  return 'other';
}

function attribute(profile, requests) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const special = { '(garbage collector)': 'gc', '(program)': 'program', '(idle)': 'idle', '(root)': 'idle' };
  const owners = new Map();
  const ownerOfNode = (id) => {
    let owner = owners.get(id);
    if (owner !== undefined) return owner;
    const frame = byId.get(id).callFrame;
    owner = special[frame.functionName] ?? ownerOf(frame.url);
    if (owner === undefined) {
      const parent = parentOf.get(id);
      owner = parent === undefined ? 'node' : ownerOfNode(parent);
      if (owner === 'idle') owner = 'node';
    }
    owners.set(id, owner);
    return owner;
  };
  /** The faultline function a sample's time goes to: the sampled frame or its nearest faultline caller. */
  const faultlineFrameOf = (id) => {
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at).callFrame;
      if (ownerOf(frame.url) === 'faultline') return frame.functionName || '(anonymous)';
    }
    return '(unknown)';
  };
  /** The OpenTelemetry package a sample's time goes to: the sampled frame's or its nearest OpenTelemetry caller's. */
  const otelPackageOf = (id) => {
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const m = /\/@opentelemetry\/([^/]+)\//.exec(byId.get(at).callFrame.url);
      if (m) return m[1];
    }
    return '(unknown)';
  };
  const micros = {};
  const faultlineFunctions = {};
  const otelPackages = {};
  const selfByFrame = {};
  // timeDeltas[i + 1] is how long sample i lasted.
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const owner = ownerOfNode(id);
    const dt = profile.timeDeltas[i + 1] ?? 0;
    micros[owner] = (micros[owner] ?? 0) + dt;
    if (PROFILE_DIFF) {
      const f = byId.get(id).callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(instrumentation|bench)\//, '$1/')}:${f.lineNumber}`;
      selfByFrame[key] = (selfByFrame[key] ?? 0) + dt;
    }
    if (owner === 'faultline') {
      const fn = faultlineFrameOf(id);
      faultlineFunctions[fn] = (faultlineFunctions[fn] ?? 0) + dt;
    } else if (owner === 'opentelemetry') {
      const pkg = otelPackageOf(id);
      otelPackages[pkg] = (otelPackages[pkg] ?? 0) + dt;
    }
  }
  delete micros.idle;
  const perRequest = (entries) => entries.map(([k, v]) => [k, v / Math.max(1, requests)]);
  return {
    owners: Object.fromEntries(perRequest(Object.entries(micros))),
    faultlineTop: perRequest(
      Object.entries(faultlineFunctions)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8),
    ),
    selfByFrame: Object.fromEntries(perRequest(Object.entries(selfByFrame))),
    otelTop: perRequest(
      Object.entries(otelPackages)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8),
    ),
  };
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

/** Export requests and bytes the sink has received so far. */
async function sinkStats(sinkUrl) {
  const res = await fetch(`${sinkUrl}/stats`);
  return res.json();
}

async function startService(arm, env) {
  const svc = startChild([...arm.args, SELF, 'service'], { ...arm.env, ...env });
  return { svc, target: `http://127.0.0.1:${(await svc.firstLine).port}/` };
}

async function stopService(svc) {
  // Stock's register flushes on SIGTERM but leaves the server running: kill it after a moment.
  svc.child.kill('SIGTERM');
  const killer = setTimeout(() => svc.child.kill('SIGKILL'), 1000);
  await svc.exited;
  clearTimeout(killer);
}

/** One closed-loop run with the service's profiler on over the measured window (see serviceProfiler). */
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
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,undici,pg,mysql2,tedious,ioredis,aws-sdk,grpc',
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
  // BENCH_WORKLOADS=fail20 runs a subset (while iterating; a full run prints every target).
  const only = (process.env.BENCH_WORKLOADS ?? '').split(',').filter(Boolean);
  const chosen = Object.entries(WORKLOADS).filter(([name]) => only.length === 0 || only.includes(name));
  for (const [workload, { failEvery, jsonEvery, arms: armNames }] of chosen) {
    const results = Object.fromEntries(armNames.map((k) => [k, []]));
    const workloadEnv = {
      UPSTREAM_URL: upstreamUrl,
      FAIL_EVERY: String(failEvery),
      JSON_EVERY: String(jsonEvery),
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order so no arm always runs first (or last) on a warming machine.
      const order = armNames.map((_, i) => armNames[(i + round) % armNames.length]);
      for (const name of order) {
        const { svc, target } = await startService(arms[name], workloadEnv);
        const sink0 = await sinkStats(sinkUrl);
        const closed = await measure(svc, target, 0);
        const open = await measure(svc, target, RATE);
        await stopService(svc);
        const sink1 = await sinkStats(sinkUrl);
        // Every request the service answered in both runs, warm-ups included, exported its spans.
        const served = closed.total + open.total;
        results[name].push({ closed, open, exportBytesPerReq: (sink1.bytes - sink0.bytes) / served });
      }
    }
    const description = [
      failEvery ? `1 upstream call in ${failEvery} answers 503 (the service answers 502)` : '',
      jsonEvery ? `1 upstream call in ${jsonEvery} answers a small JSON body` : '',
    ]
      .filter(Boolean)
      .join('; ');
    verdicts.push(...report(workload, description, results));
    if (PROFILE) {
      const profiles = {};
      for (const name of ['stock', 'faultline']) profiles[name] = await profileArm(arms[name], workloadEnv);
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
}

/** Where each arm's main-thread CPU went in the profiled run, per request, by owner. */
function reportProfile(workload, profiles) {
  const owners = ['opentelemetry', 'faultline', 'service', 'node', 'gc', 'program', 'other'];
  console.log(
    `[${workload}] profile, closed loop, main thread, µs per request by owner (node's own frames count for their caller):`,
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
    `reference JSON.parse of a ${REFERENCE_BODY.length}-byte body, timed inside each request vs in a hot loop, same process: ${[
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
      line: `faultline/stock throughput (closed loop): ${figures.throughput.toFixed(3)}x (target >= ${TARGETS.throughput.toFixed(1)}x)`,
    },
    {
      name: `${workload} CPU closed`,
      met: figures.cpuClosed <= TARGETS.cpu,
      line: `service CPU per request faultline/stock, closed loop: ${figures.cpuClosed.toFixed(3)}x (target <= ${TARGETS.cpu.toFixed(1)}x)`,
    },
    {
      name: `${workload} CPU open`,
      met: figures.cpuOpen <= TARGETS.cpu,
      line: `service CPU per request faultline/stock, open loop at ${RATE} req/s: ${figures.cpuOpen.toFixed(3)}x (target <= ${TARGETS.cpu.toFixed(1)}x)`,
    },
    {
      name: `${workload} added latency`,
      met: figures.addedUs <= TARGETS.addedLatencyUs,
      line: `faultline added median latency vs stock at ${RATE} req/s (open loop): ${signed(figures.addedUs)} µs (target <= ${TARGETS.addedLatencyUs} µs)`,
    },
    {
      name: `${workload} exported bytes`,
      met: figures.bytes <= TARGETS.bytes,
      line: `exported bytes per request faultline/stock: ${figures.bytes.toFixed(3)}x (target <= ${TARGETS.bytes.toFixed(1)}x)`,
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
