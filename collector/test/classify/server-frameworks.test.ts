import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';

/**
 * End to end with no Faultline preload: express 5, koa 3 and fastify 5 services under stock
 * OpenTelemetry (NodeSDK + getNodeAutoInstrumentations() + its OTLP exporter,
 * instrumentation/test/fixtures/frameworks/) answer requests that fail the ways handlers fail, and
 * export to a real collector. The stored rows must say what each failure means, and the first-hand
 * failure of each request must sit where it happened: the server's status is the echo of a handler
 * or client span that failed below it.
 *
 * What the stock spans look like (auto-instrumentations-node 0.81):
 *  - express: instrumentation-router and instrumentation-express nest three INTERNAL spans under the
 *    server span ("middleware - patched" › "request handler" › "request handler - /path"); each
 *    records the handler's error as an exception event (exception.type = the error's code, else its
 *    name: "TypeError", "ServiceUnavailableError", "ECONNREFUSED"); the innermost is first-hand.
 *  - koa: instrumentation-koa gives each middleware an INTERNAL span, nested; every middleware the
 *    error passes through records it; the innermost ("middleware - routes") is first-hand.
 *  - fastify: no fastify instrumentation in auto-instrumentations-node 0.81, so no handler span and
 *    no exception event: the server span's status is all the evidence there is.
 *  - none captures a response header by default, so no Retry-After reaches the collector.
 */
const FIXTURES = fileURLToPath(
  new URL('../../../instrumentation/test/fixtures/frameworks/', import.meta.url),
);
const INSTRUMENTATION_ROOT = fileURLToPath(new URL('../../../instrumentation/', import.meta.url));
const TOKEN = 'server-frameworks-token-0123456789';
const PATHS = [
  '/bug',
  '/unavailable',
  '/rate-limited',
  '/upstream-timeout',
  '/db-down',
  '/pool-timeout',
  '/mysql-login',
  '/mysql2-login',
  '/amqp-login',
  '/mqtt-login',
] as const;
type Path = (typeof PATHS)[number];
const FRAMEWORKS = ['express', 'koa', 'fastify'] as const;
type Framework = (typeof FRAMEWORKS)[number];

interface FailureRow {
  SpanId: string;
  ParentSpanId: string;
  SpanKind: string;
  SpanName: string;
  class: string;
  source: string;
  code: string;
  retryable: boolean;
}
interface Request {
  status: number;
  failures: FailureRow[];
  firstHand: FailureRow[];
  /** The server span's own row, if it is one. */
  server: FailureRow | undefined;
}

let ts: TestStore;
let collector: Collector;
const seen = new Map<Framework, Map<Path, Request>>();

/** Starts a fixture, waits for its `{"port":N}`, makes every request, then SIGTERM (it flushes). */
async function runService(framework: Framework): Promise<Map<Path, number>> {
  const { NODE_OPTIONS: _omit, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, [`${FIXTURES}${framework}.cjs`], {
    cwd: INSTRUMENTATION_ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'test', // express's final handler prints each error's stack otherwise
      OTEL_SERVICE_NAME: `stock-${framework}-${process.pid}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${TOKEN}`,
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_NODE_RESOURCE_DETECTORS: 'env',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = once(child, 'exit');
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${framework} exited early (${code}): ${stderr}`)));
  });
  const statuses = new Map<Path, number>();
  for (const path of PATHS) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    await res.arrayBuffer();
    statuses.set(path, res.status);
  }
  child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  expect(stderr, `${framework} wrote to stderr`).toBe('');
  expect(code).toBe(0);
  return statuses;
}

const RANGE = "from = '2000-01-01 00:00:00', to = '2100-01-01 00:00:00'";
const COLUMNS = 'SpanId, ParentSpanId, SpanKind, SpanName, class, source, code, retryable';

async function readRequests(framework: Framework, statuses: Map<Path, number>): Promise<Map<Path, Request>> {
  const service = `stock-${framework}-${process.pid}`;
  const { rows: servers } = await ts.store.runReadOnly<{ TraceId: string; SpanId: string; path: string }>(
    `SELECT TraceId, SpanId, SpanAttributes['url.path'] AS path FROM otel_traces
     WHERE ServiceName = {s:String} AND SpanKind = 'Server'`,
    { s: service },
  );
  const out = new Map<Path, Request>();
  for (const path of PATHS) {
    const server = servers.find((r) => r.path === path);
    expect(server, `${framework} ${path}: no server span stored`).toBeDefined();
    const trace = { t: server!.TraceId };
    const { rows: failures } = await ts.store.runReadOnly<FailureRow>(
      `SELECT ${COLUMNS} FROM failures WHERE TraceId = {t:String} ORDER BY Timestamp`,
      trace,
    );
    const { rows: firstHand } = await ts.store.runReadOnly<FailureRow>(
      `SELECT ${COLUMNS} FROM first_hand_failures(${RANGE}) WHERE TraceId = {t:String} ORDER BY Timestamp`,
      trace,
    );
    out.set(path, {
      status: statuses.get(path)!,
      failures,
      firstHand,
      server: failures.find((r) => r.SpanId === server!.SpanId),
    });
  }
  return out;
}

beforeAll(async () => {
  ts = await openTestStore('server-frameworks');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
  const statuses = await Promise.all(FRAMEWORKS.map((f) => runService(f)));
  await collector.writer.settle();
  for (const [i, framework] of FRAMEWORKS.entries()) {
    seen.set(framework, await readRequests(framework, statuses[i]!));
  }
}, 120_000);

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

const core = (r: FailureRow | undefined) =>
  r && { class: r.class, source: r.source, code: r.code, retryable: r.retryable };
const request = (framework: Framework, path: Path) => seen.get(framework)!.get(path)!;

/** The one first-hand failure of a request, and that it is not the server span. */
function oneFirstHandBelowServer(req: Request): FailureRow {
  expect(req.firstHand).toHaveLength(1);
  const [first] = req.firstHand;
  expect(first!.SpanKind).not.toBe('Server');
  // The server answered with an error status: a failure row, and an echo of the one below.
  expect(req.server).toBeDefined();
  return first!;
}

describe.each(['express', 'koa'] as const)(
  '%s under stock OpenTelemetry: the handler span holds it',
  (fw) => {
    it('a TypeError thrown by the handler is a bug: permanent, code TypeError; the 500 is its echo', () => {
      const req = request(fw, '/bug');
      expect(req.status).toBe(500);
      const first = oneFirstHandBelowServer(req);
      expect(first.SpanKind).toBe('Internal');
      // A bug does not heal by retrying: replan (fix the code), never retry.
      expect(core(first)).toEqual({
        class: 'permanent',
        source: 'unknown',
        code: 'TypeError',
        retryable: false,
      });
      // Every handler span the error passed through says the same; only the server says 500.
      for (const r of req.failures.filter((r) => r !== req.server)) expect(r.code).toBe('TypeError');
      expect(core(req.server)).toEqual({ class: 'transient', source: 'http', code: '500', retryable: true });
    });

    it('an http-errors 503 with Retry-After is the service saying it is down for now: transient 503', () => {
      const req = request(fw, '/unavailable');
      expect(req.status).toBe(503);
      const first = oneFirstHandBelowServer(req);
      // Service Unavailable is temporary by definition (RFC 9110 §15.6.4): retry later. The code is the
      // status the error's name (ServiceUnavailableError) states, as the error object classifies.
      expect(core(first)).toEqual({ class: 'transient', source: 'http', code: '503', retryable: true });
      expect(req.server?.code).toBe('503');
    });

    it('a refused login to RabbitMQ (no amqplib span): the handler span says authentication', () => {
      const req = request(fw, '/amqp-login');
      const first = oneFirstHandBelowServer(req);
      // AMQP reply 403 ACCESS_REFUSED: credentials, not a retry.
      expect(core(first)).toEqual({
        class: 'authentication',
        source: 'messaging',
        code: '403',
        retryable: false,
      });
    });

    it('a refused MQTT login (no mqtt.js span): CONNACK "Not authorized" is authentication, not a refused socket', () => {
      const req = request(fw, '/mqtt-login');
      const first = oneFirstHandBelowServer(req);
      // MQTT 3.1.1 §3.2.2.3: return code 5, not authorized.
      expect(core(first)).toEqual({
        class: 'authentication',
        source: 'messaging',
        code: '5',
        retryable: false,
      });
    });
  },
);

describe.each(FRAMEWORKS)('%s under stock OpenTelemetry: the client span holds it', (fw) => {
  it('a 429 the service answered is a failure of that request: rate_limit, first-hand on the server', () => {
    const req = request(fw, '/rate-limited');
    expect(req.status).toBe(429);
    // The preload's rule for a server span (failingHttpStatusOf): 4xx and 5xx failed.
    expect(req.firstHand).toHaveLength(1);
    expect(req.firstHand[0]!.SpanKind).toBe('Server');
    // Too Many Requests: back off and retry (RFC 6585 §4).
    expect(core(req.firstHand[0])).toEqual({
      class: 'rate_limit',
      source: 'http',
      code: '429',
      retryable: true,
    });
  });

  it('got timing out on an upstream that never answers: transient ETIMEDOUT on the http client span', () => {
    const req = request(fw, '/upstream-timeout');
    const first = oneFirstHandBelowServer(req);
    expect(first.SpanKind).toBe('Client');
    // A slow upstream: retry with backoff.
    expect(core(first)).toEqual({ class: 'transient', source: 'http', code: 'ETIMEDOUT', retryable: true });
  });

  it('pg-pool with PostgreSQL down: transient ECONNREFUSED, first-hand on the checkout the query made', () => {
    const req = request(fw, '/db-down');
    // Stock spans the checkout (pg-pool.connect), the connect under it (pg.connect) and the socket
    // (instrumentation-net's tcp.connect), each failed: the two below are steps of the checkout
    // (sql/schema/030), which holds the one failure; the handler and the server echo it.
    const first = oneFirstHandBelowServer(req);
    expect(first.SpanName).toBe('pg-pool.connect');
    // Nothing listens: the database is down for now, a retry may find it back.
    expect(core(first)).toEqual({ class: 'transient', source: 'db', code: 'ECONNREFUSED', retryable: true });
    for (const r of req.failures.filter((r) => r !== req.server)) {
      expect({ class: r.class, code: r.code }).toEqual({ class: 'transient', code: 'ECONNREFUSED' });
    }
  });

  it('pg-pool checkout timeout ("timeout exceeded when trying to connect"): transient', () => {
    const req = request(fw, '/pool-timeout');
    const first = oneFirstHandBelowServer(req);
    expect(first.SpanName).toBe('pg-pool.connect');
    // Every connection was busy: one comes back, so retry.
    expect(core(first)).toEqual({
      class: 'transient',
      source: 'db',
      code: 'POOL_CONNECT_TIMEOUT',
      retryable: true,
    });
  });

  it.each(['/mysql-login', '/mysql2-login'] as const)(
    'a refused MariaDB login (%s): authentication 1045 on the query span, and on every handler span',
    (path) => {
      const req = request(fw, path);
      const first = oneFirstHandBelowServer(req);
      expect(first.SpanKind).toBe('Client');
      // ER_ACCESS_DENIED_ERROR (1045): rotate the credentials, do not retry.
      expect(core(first)).toEqual({ class: 'authentication', source: 'db', code: '1045', retryable: false });
      for (const r of req.failures.filter((r) => r !== req.server)) {
        expect(core(r)).toEqual({ class: 'authentication', source: 'db', code: '1045', retryable: false });
      }
    },
  );
});

describe('fastify under stock OpenTelemetry: only the server span', () => {
  it('no handler span: the status the server answered is the evidence, and first-hand', () => {
    const bug = request('fastify', '/bug');
    const unavailable = request('fastify', '/unavailable');
    for (const req of [bug, unavailable]) {
      expect(req.failures).toHaveLength(1);
      expect(req.firstHand).toEqual(req.failures);
      expect(req.firstHand[0]!.SpanKind).toBe('Server');
    }
    // The 503 says what the handler meant; the TypeError is lost behind fastify's 500.
    expect(core(unavailable.firstHand[0])).toEqual({
      class: 'transient',
      source: 'http',
      code: '503',
      retryable: true,
    });
    expect(core(bug.firstHand[0])).toEqual({
      class: 'transient',
      source: 'http',
      code: '500',
      retryable: true,
    });
  });
});
