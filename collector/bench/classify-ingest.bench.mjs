// Collector-side classification cost: sustained ingest of stock OpenTelemetry spans that carry no
// envelope (10% failing: status ERROR, an HTTP 503 or a PostgreSQL deadlock with its exception
// event — the collector classifies them) beside the same traffic as the preload sends it (10%
// failing, envelope already on the span — the collector only stores it). One collector, one
// engine, the two kinds interleaved round by round; each round posts the same number of
// 512-span OTLP/protobuf requests and its clock runs until every acknowledged span is inserted.
// Prints per-round figures, the medians and their ratio; asserts nothing.
//   node collector/bench/classify-ingest.bench.mjs [--rounds 5] [--requests 120]
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const DIST = new URL('../dist/index.js', import.meta.url);
const SPANS_PER_REQUEST = 512;
const BODIES = 8;
const CONCURRENCY = 16;

async function makeBodies(kind) {
  const { ProtobufTraceSerializer } = await import('@opentelemetry/otlp-transformer');
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import(
    '@opentelemetry/sdk-trace-base'
  );
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const bodies = [];
  for (let b = 0; b < BODIES; b++) {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({
        'service.name': `${kind}-${b % 4}`,
        'telemetry.sdk.language': 'nodejs',
      }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer(
      kind === 'preload' ? '@faultline/instrumentation' : '@opentelemetry/instrumentation-http',
    );
    for (let i = 0; i < SPANS_PER_REQUEST; i++) {
      const failed = i % 10 === 0;
      const db = i % 20 === 0;
      const attributes = db
        ? { 'db.system.name': 'postgresql', 'db.query.text': 'UPDATE orders SET state = $1' }
        : {
            'http.request.method': 'POST',
            'url.full': 'https://api.example.com/v1/orders',
            'server.address': 'api.example.com',
            'http.response.status_code': failed ? 503 : 200,
          };
      if (kind === 'preload') {
        attributes['faultline.source'] = db ? 'db' : 'http';
        attributes['faultline.correlation_id'] = `req_${b}_${i}`;
      }
      const span = tracer.startSpan(db ? 'UPDATE orders' : 'POST /v1/orders', { kind: 2, attributes });
      if (failed) {
        if (kind === 'preload') {
          span.setAttributes({
            'faultline.class': 'transient',
            'faultline.code': db ? '40P01' : '503',
            'faultline.message': db ? 'deadlock detected' : 'Service Unavailable',
            'faultline.retryable': true,
          });
        }
        span.addEvent('exception', {
          'exception.type': db ? 'error' : 'Error',
          'exception.message': db ? 'deadlock detected' : 'Service Unavailable',
        });
        span.setStatus({ code: 2, message: db ? 'deadlock detected' : '503' });
      }
      span.end();
    }
    bodies.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())));
  }
  return bodies;
}

function post(port, agent, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        path: '/v1/traces',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-protobuf' },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function round(collector, agent, bodies, requests) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests) {
        const i = next++;
        await post(collector.port, agent, bodies[i % bodies.length]);
      }
    }),
  );
  await collector.writer.settle({ timeoutMs: 120_000 });
  const seconds = (performance.now() - started) / 1000;
  return (requests * SPANS_PER_REQUEST) / seconds;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '120' } },
  });
  if (!existsSync(DIST)) {
    console.error('collector/dist is missing: run `npm run build -w collector` first');
    process.exit(2);
  }
  const { startCollector, decodeTraces, RECEIVER_DEFAULTS } = await import(DIST.href);
  const { openStore } = await import('@faultline/sql');
  const kinds = { preload: await makeBodies('preload'), stock: await makeBodies('stock') };
  // The rule under test, checked once: stock failures come out classified by the collector.
  const sample = decodeTraces(kinds.stock[0], 'protobuf', RECEIVER_DEFAULTS).rows.filter(
    (r) => r.SpanAttributes['faultline.class'],
  );
  console.log(
    `stock body: ${sample.length} of ${SPANS_PER_REQUEST} spans classified at ingest (classified_by=${sample[0]?.SpanAttributes['faultline.classified_by']})`,
  );
  // The decode stage alone, where the classification runs: spans decoded per CPU second, the two
  // kinds alternated over rounds. Sustained ingest below includes the INSERT and the views.
  const decodeRates = { preload: [], stock: [] };
  for (let r = 0; r < 7; r++) {
    for (const kind of r % 2 === 0 ? ['preload', 'stock'] : ['stock', 'preload']) {
      const t0 = process.cpuUsage();
      let n = 0;
      for (let i = 0; i < 40; i++)
        n += decodeTraces(kinds[kind][i % BODIES], 'protobuf', RECEIVER_DEFAULTS).rows.length;
      const cpu = process.cpuUsage(t0);
      decodeRates[kind].push(n / ((cpu.user + cpu.system) / 1e6));
    }
  }
  const dp = median(decodeRates.preload);
  const ds = median(decodeRates.stock);
  console.log(
    `decode (median of 7 interleaved rounds): preload-classified ${fmt(dp)} spans per CPU-s, stock with classification ${fmt(ds)} spans per CPU-s; stock / preload = ${(ds / dp).toFixed(3)}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'faultline-classify-bench-'));
  const store = await openStore({ dataDir: join(dir, 'data') });
  const collector = await startCollector({ port: 0, store, writerOptions: { spoolDir: join(dir, 'wal') } });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const rounds = Number(values.rounds);
  const requests = Number(values.requests);
  const results = { preload: [], stock: [] };
  try {
    // A warm-up of each kind, not counted: the first INSERTs create parts and caches.
    for (const kind of Object.keys(kinds)) await round(collector, agent, kinds[kind], 20);
    for (let r = 0; r < rounds; r++) {
      // Alternate which kind goes first so drift on a shared machine falls on both.
      const order = r % 2 === 0 ? ['preload', 'stock'] : ['stock', 'preload'];
      for (const kind of order) results[kind].push(await round(collector, agent, kinds[kind], requests));
      console.log(
        `round ${r + 1}: preload-classified ${fmt(results.preload.at(-1))} spans/s, stock (classified at ingest) ${fmt(results.stock.at(-1))} spans/s`,
      );
    }
  } finally {
    agent.destroy();
    await collector.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const p = median(results.preload);
  const s = median(results.stock);
  console.log(
    `median over ${rounds} interleaved rounds (${requests} × ${SPANS_PER_REQUEST} spans each, 10% failing): preload-classified ${fmt(p)} spans/s, stock ${fmt(s)} spans/s; stock / preload = ${(s / p).toFixed(3)} (the issue's bound: at least 0.800)`,
  );
}

await main();
