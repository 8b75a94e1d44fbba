// The service the preload bench (../preload.bench.mjs) runs under each arm: a node:http server
// that calls a local upstream for every request and answers 502 when the upstream does not answer
// 200. Run as its own entry, `node [arm flags] lib/preload-service.mjs`, with UPSTREAM_URL,
// FAIL_EVERY, JSON_EVERY and SERVICE_SHAPE in the environment. Two shapes of the same service:
// - `http`: node:http `require`d for both the server and the upstream call (http.get over a
//   keep-alive agent). `require` on purpose: stock auto-instrumentations-node/register registers no
//   ESM loader hook, so through require both preloads instrument the same calls;
// - `fetch`: an ES module as issue 28 measured it, `import http from 'node:http'` for the server and
//   global `fetch` (undici) for the upstream call. Stock sees that import only through
//   OpenTelemetry's ESM loader hook, which the bench gives its stock arm for this shape.
// Its first line says where it listens and its resident set size right after it started
// listening. `/__bench/profile/start|stop` run V8's sampling profiler over a window of the load.
import esmHttp from 'node:http';
import { createRequire } from 'node:module';

const SHAPE = process.env.SERVICE_SHAPE ?? 'http';
/** A small JSON error body like the upstream's, for the reference timing (see serviceProfiler). */
const REFERENCE_BODY = '{"error":{"message":"upstream failed","code":"unavailable","retryable":true}}';
const PROFILE_DIFF = Number(process.env.BENCH_PROFILE_DIFF ?? 0);
const reference = { sink: undefined };

// Lets a profiler run (`--cpu-prof`) end with a normal exit, which writes the profile.
process.on('SIGUSR2', () => process.exit(0));
// The static import is also evaluated in the http shape, as in any ES module; without a loader hook
// it changes nothing there.
const http = SHAPE === 'fetch' ? esmHttp : createRequire(import.meta.url)('node:http');
const target = process.env.UPSTREAM_URL;
const failEvery = Number(process.env.FAIL_EVERY);
const jsonEvery = Number(process.env.JSON_EVERY);
let n = 0;
const profiler = serviceProfiler(() => n);
const callUpstream = SHAPE === 'fetch' ? viaFetch : viaHttpGet();
const server = http.createServer((req, res) => {
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
  callUpstream(`${target}${path}`, res);
});
server.listen(0, '127.0.0.1', () =>
  console.log(JSON.stringify({ port: server.address().port, rss: process.memoryUsage().rss })),
);

function viaHttpGet() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  return (url, res) =>
    http
      .get(url, { agent }, (up) => {
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
}

/** Global fetch keeps its connections alive by itself (undici's global dispatcher). */
async function viaFetch(url, res) {
  try {
    const up = await fetch(url);
    const body = await up.text();
    res.writeHead(up.status === 200 ? 200 : 502, { 'content-type': 'text/plain' }).end(body);
  } catch {
    res.writeHead(500).end();
  }
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
    const served = requests() - startedAt;
    return {
      requests: served,
      ...attribute(profile, served),
      ...referenceFigures(),
      referenceBytes: REFERENCE_BODY.length,
    };
  };
  profiler.timing = false;
  profiler.timeReference = timeReference;
  return profiler;
}

function ownerOf(url) {
  if (url.includes('/@faultline/instrumentation/') || url.includes('/instrumentation/dist/'))
    return 'faultline';
  if (url.includes('/@opentelemetry/')) return 'opentelemetry';
  if (url.includes('/bench/lib/preload-service.mjs')) return 'service';
  // Node's bundled undici (global fetch) is node's own, whoever calls it: stock traces fetch through
  // diagnostics_channel, Faultline wraps it, and its frames would otherwise count for the wrapper.
  if (url.startsWith('node:internal/deps/undici/')) return 'node';
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

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
