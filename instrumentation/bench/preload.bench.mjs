// Cost of the Faultline preload on a real HTTP service, against stock OpenTelemetry.
// One service (node:http server that calls a local upstream over keep-alive; 1 call in 5 fails
// with 503) runs three ways: no instrumentation, `--import @opentelemetry/auto-instrumentations-node/register`,
// and `--import @faultline/instrumentation/register`. Both instrumented arms export OTLP/HTTP
// protobuf to the same local sink (answers 200). A separate load-generator process drives each
// arm with keep-alive connections. Arms are interleaved over several rounds to spread the noise
// of this shared machine; the figures are medians over rounds.
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
const FAIL_EVERY = 5;

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
  const body = '{"ok":true}';
  const fail = '{"error":"unavailable"}';
  listen(
    http.createServer((req, res) => {
      const failing = req.url === '/fail';
      res.writeHead(failing ? 503 : 200, {
        'content-type': 'application/json',
        'content-length': String(failing ? fail.length : body.length),
      });
      res.end(failing ? fail : body);
    }),
  );
}

function sink() {
  listen(
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
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
  let n = 0;
  listen(
    http.createServer((_req, res) => {
      n += 1;
      const path = n % FAIL_EVERY === 0 ? '/fail' : '/ok';
      http
        .get(`${target}${path}`, { agent }, (up) => {
          let body = '';
          up.setEncoding('utf8');
          up.on('data', (c) => {
            body += c;
          });
          up.on('end', () => {
            res
              .writeHead(up.statusCode === 200 ? 200 : 502, { 'content-type': 'application/json' })
              .end(body);
          });
        })
        .on('error', () => res.writeHead(500).end());
    }),
  );
}

/** Keep-alive closed loop: each connection sends its next request when the previous answers. */
async function load() {
  const url = process.env.TARGET_URL;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = [];
  let measuring = false;
  let stop = false;
  const one = () =>
    new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (measuring) latencies.push(Number(process.hrtime.bigint() - t0) / 1000);
            resolve();
          });
        })
        .on('error', resolve);
    });
  const worker = async () => {
    while (!stop) await one();
  };
  const workers = Array.from({ length: CONNECTIONS }, worker);
  await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
  console.log(JSON.stringify({ phase: 'measure' }));
  measuring = true;
  const start = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  stop = true;
  await Promise.all(workers);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  console.log(
    JSON.stringify({
      phase: 'done',
      n: latencies.length,
      rps: latencies.length / elapsed,
      p50: at(0.5),
      p99: at(0.99),
    }),
  );
  agent.destroy();
}

function startChild(args, env = {}) {
  const child = spawn(process.execPath, args, {
    cwd: PKG,
    env: { PATH: process.env.PATH, ...env },
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

/** User + system CPU time of a process so far, in microseconds (Linux /proc, 100 Hz ticks). */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
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
  const exportEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_SERVICE_NAME: 'bench-service',
  };
  const arms = {
    none: { args: [], env: {} },
    stock: {
      args: ['--import', '@opentelemetry/auto-instrumentations-node/register'],
      env: {
        ...exportEnv,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        // The same detectors as the Faultline arm: no cloud metadata probes on this machine.
        OTEL_NODE_RESOURCE_DETECTORS: 'env,host,process',
      },
    },
    faultline: { args: ['--import', '@faultline/instrumentation/register'], env: exportEnv },
  };
  const results = Object.fromEntries(Object.keys(arms).map((k) => [k, []]));
  console.log(
    `preload bench: ${ROUNDS} rounds x ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up) per arm, ` +
      `${CONNECTIONS} keep-alive connections, 1 upstream call in ${FAIL_EVERY} answers 503`,
  );
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no arm always runs first (or last) on a warming machine.
    const names = Object.keys(arms);
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const arm = arms[name];
      const svc = startChild([...arm.args, SELF, 'service'], { ...arm.env, UPSTREAM_URL: upstreamUrl });
      const target = `http://127.0.0.1:${(await svc.firstLine).port}/`;
      const ld = startChild([SELF, 'load'], { TARGET_URL: target, BENCH_SECONDS: String(SECONDS) });
      await ld.firstLine;
      const cpu0 = cpuMicros(svc.child.pid);
      const done = await ld.next();
      const cpu = cpuMicros(svc.child.pid) - cpu0;
      results[name].push({ ...done, cpuPerReq: cpu / done.n });
      await ld.exited;
      // Stock's register flushes on SIGTERM but leaves the server running: kill it after a moment.
      svc.child.kill('SIGTERM');
      const killer = setTimeout(() => svc.child.kill('SIGKILL'), 1000);
      await svc.exited;
      clearTimeout(killer);
    }
  }
  up.child.kill('SIGTERM');
  sk.child.kill('SIGTERM');

  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      {
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        cpu: median(runs.map((r) => r.cpuPerReq)),
      },
    ]),
  );
  console.log('arm         req/s    median µs    p99 µs   service CPU µs/req   (medians over rounds)');
  for (const [name, s] of Object.entries(summary)) {
    console.log(
      `${name.padEnd(10)} ${s.rps.toFixed(0).padStart(7)} ${s.p50.toFixed(0).padStart(12)} ${s.p99.toFixed(0).padStart(9)} ${s.cpu.toFixed(0).padStart(20)}`,
    );
  }
  const ratio = summary.faultline.rps / summary.stock.rps;
  const added = summary.faultline.p50 - summary.stock.p50;
  console.log(`faultline/stock throughput: ${ratio.toFixed(3)}x (target >= 0.95x)`);
  console.log(
    `faultline added median latency vs stock: ${added >= 0 ? '+' : ''}${added.toFixed(0)} µs (target <= 50 µs)`,
  );
  console.log(
    `service CPU per request, faultline/stock: ${(summary.faultline.cpu / summary.stock.cpu).toFixed(3)}x ` +
      '(less sensitive to the noise of a shared machine than req/s)',
  );
  console.log(
    `faultline vs no instrumentation: ${(summary.faultline.rps / summary.none.rps).toFixed(3)}x throughput, ` +
      `+${(summary.faultline.p50 - summary.none.p50).toFixed(0)} µs median`,
  );
}
