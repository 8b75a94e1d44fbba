// Ingest benchmark: 512-span OTLP/protobuf requests from this process into a collector child
// process with embedded chDB. The load runs twice in the one run, against the writer acknowledging
// after the INSERT (before: `ackAfter: 'insert'`) and after the write-ahead log's fsync (after:
// `ackAfter: 'wal'`), each preceded by the ceiling in the same child and engine: the same rows,
// already serialized, in one INSERT. Sustained ingest counts a span only once it is inserted: the
// clock runs until the collector has inserted everything it acknowledged. Prints every figure;
// asserts nothing.
//   node collector/bench/ingest.bench.mjs [--seconds 15]
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';

const DIST = new URL('../dist/index.js', import.meta.url);
const SPANS_PER_REQUEST = 512;
const BODIES = 16;

// ───────────────────────────── load generator (parent) ─────────────────────────────

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '15' },
      concurrency: { type: 'string', default: '32' },
      batch: { type: 'string', default: '' },
      queue: { type: 'string', default: '' },
      // JSON merged into the `after` writer's options, e.g. '{"insertSettings":{"max_insert_threads":1}}'.
      'after-options': { type: 'string', default: '{}' },
    },
  });
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  if (!existsSync(DIST)) {
    console.error('collector/dist is missing: run `npm run build -w collector` first');
    process.exit(2);
  }
  const bodies = await makeBodies();
  const { decodeTraces } = await import(DIST.href);
  printDecodeSpeed(decodeTraces, bodies[0]);
  await printReflectionSpeed(bodies[0]);

  const dir = mkdtempSync(join(tmpdir(), 'faultline-ingest-bench-'));
  const child = fork(
    new URL(import.meta.url).pathname,
    ['--collector', dir, values.batch, values.queue, values['after-options']],
    {
      stdio: 'inherit',
      // e.g. INGEST_BENCH_CHILD_ARGS=--cpu-prof to profile the collector side.
      execArgv: process.env.INGEST_BENCH_CHILD_ARGS?.split(' ').filter(Boolean) ?? [],
    },
  );
  const ask = rpc(child);
  try {
    const { ports } = await ask({ cmd: 'ready' });
    const agent = new Agent({ keepAlive: true, maxSockets: 256 });
    // Two collectors in the one child, on the one engine, measured back to back: the writer as it
    // was (size-or-time batches of 10 000, 2 concurrent inserts, a span-count queue) and as it is.
    const rates = {};
    const ceilings = [];
    for (const name of ['before', 'after']) {
      console.log(`--- writer ${name}: ${ports[name].describe}`);
      // The ceiling right before each phase, so a busy machine weighs on both sides of the ratio:
      // the receiver's own rows for these bodies, serialized before the clock starts, in one INSERT
      // through the same client and engine.
      const ceiling = await ask({ cmd: 'ceiling', rows: 102_400, token: `fl-ceiling-${name}` });
      ceilings.push(ceiling);
      line(
        'ceiling JSONEachRow',
        `${fmt(ceiling.jsonRowsPerSec)} rows/s (one INSERT of ${ceiling.rows} rows, ${mb(ceiling.jsonBytes)}, ${ceiling.jsonSeconds.toFixed(2)} s)`,
      );
      if (name === 'before') line('ceiling binary', ceiling.binary);
      const url = `http://127.0.0.1:${ports[name].port}/v1/traces`;
      await closedLoop(url, agent, bodies, concurrency, 3); // warm-up: JIT, first parts, page cache
      await ask({ cmd: 'waitInserted', name }); // the warm-up's backlog is not this phase's work
      await ask({ cmd: 'resetPeak' });
      const start = await ask({ cmd: 'stats', name });
      const writerBefore = start.writer;
      const sustained = await closedLoop(url, agent, bodies, concurrency, seconds);
      const catchUp = await ask({ cmd: 'waitInserted', name });
      const afterLoad = await ask({ cmd: 'stats', name });
      // CPU of the whole collector process (receiver, writer and chDB's threads, merges included)
      // per span: unlike spans/s it barely moves when other processes compete for the cores.
      const cpuPerSpan = (afterLoad.cpuMicros - start.cpuMicros) / sustained.ackedSpans;
      // Acknowledged is not stored: the rate counts until every acknowledged span is inserted.
      const rate = sustained.ackedSpans / (sustained.seconds + catchUp.seconds);
      rates[name] = rate;
      line(
        'sustained ingest',
        `${fmt(rate)} spans/s inserted (${sustained.ackedSpans} spans acknowledged in ${sustained.seconds.toFixed(1)} s + ${catchUp.seconds.toFixed(1)} s until all inserted, ${concurrency} concurrent requests)`,
      );
      line(
        'request latency',
        `p50 ${ms(pct(sustained.latencies, 50))}  p99 ${ms(pct(sustained.latencies, 99))}  max ${ms(Math.max(...sustained.latencies))}`,
      );
      line('responses', JSON.stringify(sustained.statuses));
      line(
        'collector CPU per span',
        `${cpuPerSpan.toFixed(1)} µs (ceiling ${ceiling.cpuMicrosPerRow.toFixed(1)} µs per row: CPU ratio ${(ceiling.cpuMicrosPerRow / cpuPerSpan).toFixed(2)}x)`,
      );
      line('collector peak RSS (load)', mb(afterLoad.peakRss));
      const h = afterLoad.writer.insertLatency;
      const inserts = h.count - writerBefore.insertLatency.count;
      const insertedRows = afterLoad.writer.inserted - writerBefore.inserted;
      line(
        'writer (sustained phase)',
        `${inserts} inserts, ${fmt(insertedRows / Math.max(1, inserts))} spans each, mean ${ms(((h.sumSeconds - writerBefore.insertLatency.sumSeconds) / Math.max(1, inserts)) * 1000)} each; spooled ${afterLoad.writer.spooled}, insert errors ${afterLoad.writer.insertErrors}`,
      );

      const overload = await openLoop(url, agent, bodies, rate * 2, 10, ask);
      line(
        '2x overload offered',
        `${fmt(overload.offeredSpans / overload.seconds)} spans/s for ${overload.seconds.toFixed(1)} s`,
      );
      line(
        '2x overload result',
        `acked ${fmt(overload.ackedSpans / overload.seconds)} spans/s, responses ${JSON.stringify(overload.statuses)}`,
      );
      const rss = overload.mem.map((m) => m.rss);
      const heap = overload.mem.map((m) => m.heapUsed);
      line(
        '2x overload RSS',
        `start ${mb(rss[0])}, max ${mb(Math.max(...rss))}, end ${mb(rss.at(-1))} (every 500 ms: ${rss.map((r) => Math.round(r / 1048576)).join(' ')} MiB)`,
      );
      line(
        '2x overload JS heap used',
        `start ${mb(heap[0])}, max ${mb(Math.max(...heap))}, end ${mb(heap.at(-1))}`,
      );
      line(
        'ratio sustained/ceiling',
        `${(rate / ceiling.jsonRowsPerSec).toFixed(2)}x (JSONEachRow ceiling just before), writer ${name}`,
      );
    }

    const drained = await ask({ cmd: 'drainAndCount' });
    const ceilingRows = ceilings.reduce((n, c) => n + c.rows, 0);
    line(
      'rows check',
      `otel_traces holds ${drained.rows} rows = ${ceilingRows} ceiling rows + ${drained.rows - ceilingRows} ingested; the collectors acknowledged ${drained.accepted} spans`,
    );
    line('after/before', `${(rates.after / rates.before).toFixed(2)}x sustained spans/s`);
    agent.destroy();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

function line(label, text) {
  console.log(`${label.padEnd(28)} ${text}`);
}
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => `${n.toFixed(1)} ms`;
const mb = (n) => `${(n / 1048576).toFixed(0)} MiB`;
function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `fn` for about a second; returns calls per CPU-second of this thread (steadier than wall time on a busy machine). */
function perCpuSecond(fn) {
  for (let i = 0; i < 200; i++) fn();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 1000) {
    fn();
    n++;
  }
  const used = process.cpuUsage(cpu);
  return n / ((used.user + used.system) / 1e6);
}

function printDecodeSpeed(decodeTraces, body) {
  const limits = { maxSpansPerRequest: 10_000, maxAttributeValueLength: 65_536, maxAnyValueDepth: 32 };
  const perSec = perCpuSecond(() => decodeTraces(body, 'protobuf', limits)) * SPANS_PER_REQUEST;
  line(
    'decode only (protobuf)',
    `${fmt(perSec)} spans per CPU-second, into rows (${(body.length / 1024).toFixed(0)} KiB per 512-span request)`,
  );
}

/**
 * The alternative to the hand decoder: protobufjs reflection over the OTLP trace schema (field
 * numbers from opentelemetry-proto), decoding to message objects only — no mapping to rows yet.
 */
async function printReflectionSpeed(body) {
  const { default: pb } = await import('protobufjs');
  const root = new pb.Root();
  const ns = root.define('otlp');
  const type = (name, fields) => {
    const t = new pb.Type(name);
    for (const [fname, id, ftype, rule] of fields) t.add(new pb.Field(fname, id, ftype, rule));
    ns.add(t);
  };
  type('AnyValue', [
    ['stringValue', 1, 'string'],
    ['boolValue', 2, 'bool'],
    ['intValue', 3, 'int64'],
    ['doubleValue', 4, 'double'],
    ['arrayValue', 5, 'ArrayValue'],
    ['kvlistValue', 6, 'KeyValueList'],
    ['bytesValue', 7, 'bytes'],
  ]);
  type('ArrayValue', [['values', 1, 'AnyValue', 'repeated']]);
  type('KeyValueList', [['values', 1, 'KeyValue', 'repeated']]);
  type('KeyValue', [
    ['key', 1, 'string'],
    ['value', 2, 'AnyValue'],
  ]);
  type('Resource', [['attributes', 1, 'KeyValue', 'repeated']]);
  type('Scope', [
    ['name', 1, 'string'],
    ['version', 2, 'string'],
    ['attributes', 3, 'KeyValue', 'repeated'],
  ]);
  type('Event', [
    ['timeUnixNano', 1, 'fixed64'],
    ['name', 2, 'string'],
    ['attributes', 3, 'KeyValue', 'repeated'],
  ]);
  type('Link', [
    ['traceId', 1, 'bytes'],
    ['spanId', 2, 'bytes'],
    ['traceState', 3, 'string'],
    ['attributes', 4, 'KeyValue', 'repeated'],
  ]);
  type('Status', [
    ['message', 2, 'string'],
    ['code', 3, 'int32'],
  ]);
  type('Span', [
    ['traceId', 1, 'bytes'],
    ['spanId', 2, 'bytes'],
    ['traceState', 3, 'string'],
    ['parentSpanId', 4, 'bytes'],
    ['name', 5, 'string'],
    ['kind', 6, 'int32'],
    ['startTimeUnixNano', 7, 'fixed64'],
    ['endTimeUnixNano', 8, 'fixed64'],
    ['attributes', 9, 'KeyValue', 'repeated'],
    ['events', 11, 'Event', 'repeated'],
    ['links', 13, 'Link', 'repeated'],
    ['status', 15, 'Status'],
  ]);
  type('ScopeSpans', [
    ['scope', 1, 'Scope'],
    ['spans', 2, 'Span', 'repeated'],
  ]);
  type('ResourceSpans', [
    ['resource', 1, 'Resource'],
    ['scopeSpans', 2, 'ScopeSpans', 'repeated'],
  ]);
  type('Request', [['resourceSpans', 1, 'ResourceSpans', 'repeated']]);
  const Request = root.lookupType('otlp.Request');
  const perSec = perCpuSecond(() => Request.decode(body)) * SPANS_PER_REQUEST;
  line(
    'protobufjs reflection',
    `${fmt(perSec)} spans per CPU-second, to message objects only (no row mapping)`,
  );
}

function post(url, agent, body) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

async function closedLoop(url, agent, bodies, concurrency, seconds) {
  const deadline = performance.now() + seconds * 1000;
  const latencies = [];
  const statuses = {};
  let ackedSpans = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const r = await post(url, agent, bodies[next++ % bodies.length]);
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status === 200) {
          ackedSpans += SPANS_PER_REQUEST;
          latencies.push(r.ms);
        } else await new Promise((res) => setTimeout(res, 50)); // an exporter backs off on 429
      }
    }),
  );
  return { ackedSpans, latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

/** Offers requests at a fixed rate whatever the answers are (open loop), sampling collector RSS. */
async function openLoop(url, agent, bodies, spansPerSec, seconds, ask) {
  const interval = (SPANS_PER_REQUEST / spansPerSec) * 1000;
  const statuses = {};
  const mem = [];
  let ackedSpans = 0;
  let offeredSpans = 0;
  const pending = new Set();
  const started = performance.now();
  const sampler = setInterval(() => void ask({ cmd: 'mem' }).then((r) => mem.push(r)), 500);
  mem.push(await ask({ cmd: 'mem' }));
  let i = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    offeredSpans += SPANS_PER_REQUEST;
    const p = post(url, agent, bodies[i++ % bodies.length]).then((r) => {
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 200) ackedSpans += SPANS_PER_REQUEST;
      pending.delete(p);
    });
    pending.add(p);
  }
  await Promise.all([...pending]);
  clearInterval(sampler);
  mem.push(await ask({ cmd: 'mem' }));
  return { ackedSpans, offeredSpans, statuses, mem, seconds: (performance.now() - started) / 1000 };
}

function rpc(child) {
  let id = 0;
  const waiting = new Map();
  child.on('message', (m) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  child.on('exit', (code) => {
    for (const resolve of waiting.values()) resolve({ error: `collector exited with ${code}` });
  });
  return (msg) =>
    new Promise((resolve, reject) => {
      const myId = ++id;
      waiting.set(myId, (m) => (m.error ? reject(new Error(m.error)) : resolve(m)));
      child.send({ ...msg, id: myId });
    });
}

/** 16 distinct 512-span requests shaped like Faultline traffic: client calls, 10% failures. */
async function makeBodies() {
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
        'service.name': `checkout-${b % 4}`,
        'service.version': '1.4.2',
        'host.name': `node-${b}`,
        'process.pid': 4242 + b,
        'telemetry.sdk.language': 'nodejs',
        'telemetry.sdk.name': 'opentelemetry',
      }),
      spanProcessors: [new SimpleSpanProcessor(memory)],
    });
    const tracer = provider.getTracer('@faultline/instrumentation', '0.1.0');
    for (let i = 0; i < SPANS_PER_REQUEST; i++) {
      const failed = i % 10 === 0;
      const span = tracer.startSpan(i % 3 === 0 ? 'SELECT orders' : 'POST /v1/charges', {
        kind: i % 8 === 0 ? 1 : 2,
        attributes: {
          'http.request.method': 'POST',
          'url.full': 'https://api.stripe.com/v1/charges',
          'server.address': 'api.stripe.com',
          'http.response.status_code': failed ? 429 : 200,
          'faultline.source': 'http',
          'faultline.correlation_id': `req_${b}_${i}`,
        },
      });
      if (failed) {
        span.setAttributes({
          'faultline.class': 'rate_limit',
          'faultline.code': '429',
          'faultline.message': 'Rate limit exceeded for endpoint /v1/charges',
          'faultline.retryable': true,
          'faultline.retry_after': 12,
          'faultline.raw': '{"status":429,"headers":{"retry-after":"12"}}',
        });
        span.addEvent('exception', {
          'exception.type': 'RateLimitError',
          'exception.message': 'Too many requests',
        });
        span.setStatus({ code: 2, message: 'rate limited' });
      }
      span.end();
    }
    bodies.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())));
  }
  return bodies;
}

// ───────────────────────────── collector (child) ─────────────────────────────

async function runCollectorChild(dir, batch, queue, afterOptions) {
  const { openStore, startCollector, insertBatch, decodeTraces, serializeRows } = await import(DIST.href);
  const store = await openStore({ dataDir: join(dir, 'data') });
  const configs = { before: { ackAfter: 'insert' }, after: { ackAfter: 'wal', ...JSON.parse(afterOptions) } };
  const collectors = {};
  const ports = {};
  for (const [name, options] of Object.entries(configs)) {
    const writerOptions = { ...options, spoolDir: join(dir, `spool-${name}`) };
    if (batch) writerOptions.maxBatchSpans = Number(batch);
    if (queue) writerOptions.maxQueueSpans = Number(queue);
    collectors[name] = await startCollector({ port: 0, store, writerOptions });
    ports[name] = { port: collectors[name].port, describe: JSON.stringify(options) };
  }
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 100);
  const count = async () => {
    const rs = await store.client.query({
      query: 'SELECT count() AS n FROM otel_traces',
      format: 'JSONEachRow',
    });
    return Number((await rs.json())[0].n);
  };
  const closeAll = () => Promise.all(Object.values(collectors).map((c) => c.close()));

  process.on('message', async (m) => {
    const reply = (data) => process.send({ ...data, id: m.id });
    try {
      if (m.cmd === 'ready') reply({ ports });
      else if (m.cmd === 'resetPeak') {
        peakRss = process.memoryUsage.rss();
        reply({});
      } else if (m.cmd === 'stats') {
        const { user, system } = process.cpuUsage();
        reply({ peakRss, writer: collectors[m.name].writer.stats(), cpuMicros: user + system });
      } else if (m.cmd === 'waitInserted') {
        const started = performance.now();
        while (collectors[m.name].writer.stats().queueDepth > 0) await new Promise((r) => setTimeout(r, 10));
        reply({ seconds: (performance.now() - started) / 1000 });
      } else if (m.cmd === 'mem') {
        const { rss, heapUsed } = process.memoryUsage();
        reply({ rss, heapUsed });
      } else if (m.cmd === 'drainAndCount') {
        await closeAll();
        const accepted = Object.values(collectors).reduce((n, c) => n + c.writer.stats().accepted, 0);
        reply({ rows: await count(), accepted });
      } else if (m.cmd === 'ceiling') reply(await ceiling(m.rows, m.token));
    } catch (err) {
      reply({ error: String(err?.stack ?? err) });
    }
  });

  async function ceiling(rows, token) {
    const limits = { maxSpansPerRequest: 10_000, maxAttributeValueLength: 65_536, maxAnyValueDepth: 32 };
    const serialized = (await makeBodies()).map((b) =>
      serializeRows(decodeTraces(b, 'protobuf', limits).rows),
    );
    let body = '';
    for (let i = 0; i < rows / SPANS_PER_REQUEST; i++) body += serialized[i % serialized.length];
    const cpu = process.cpuUsage();
    const started = performance.now();
    // A token of its own: without one, an identical body is dropped by block-hash deduplication.
    await insertBatch(store.client, body, { token });
    const jsonSeconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuMicrosPerRow = (used.user + used.system) / rows;

    let binary;
    try {
      const rb = await store.client.exec({
        query: `SELECT * FROM otel_traces LIMIT ${rows} FORMAT RowBinary`,
      });
      const chunks = [];
      for await (const c of rb.stream) chunks.push(c);
      const buf = Buffer.concat(chunks);
      const t0 = performance.now();
      await store.client.exec({
        query: 'INSERT INTO otel_traces FORMAT RowBinary',
        values: Readable.from([buf]),
      });
      const s = (performance.now() - t0) / 1000;
      binary = `${fmt(rows / s)} rows/s (RowBinary, ${mb(buf.length)})`;
    } catch (err) {
      binary = `not accepted: ${String(err.message ?? err)
        .split('\n')[0]
        .slice(0, 160)}`;
    }
    return {
      rows,
      jsonSeconds,
      jsonRowsPerSec: rows / jsonSeconds,
      cpuMicrosPerRow,
      jsonBytes: Buffer.byteLength(body),
      binary,
    };
  }

  process.on('SIGTERM', async () => {
    clearInterval(sampler);
    await closeAll().catch(() => {});
    process.exit(0);
  });
}

// Last, so every declaration above is initialized before top-level await runs.
if (process.argv[2] === '--collector')
  await runCollectorChild(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else await main();
