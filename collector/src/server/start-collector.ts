import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import type { AlertsApi } from '../alerts/alerts-api.js';
import {
  isLoopback,
  type ReceiverConfig,
  type ReceiverOptions,
  resolveReceiverConfig,
} from '../config/receiver-config.js';
import { type GrpcReceiver, startGrpcReceiver } from '../grpc/start-grpc-receiver.js';
import { checkBearer } from '../ingest/check-bearer.js';
import { DecodeBudget } from '../ingest/decode-budget.js';
import { logsExport, metricsExport } from '../ingest/export-signals.js';
import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import { ReceiverStats } from '../ingest/receiver-stats.js';
import type { LogWriter } from '../logs-ingest/log-writer.js';
import { createLogsReceiver, type LogsReceiver } from '../logs-ingest/logs-receiver.js';
import { insertedOrTimedOut, SpanLogJoin } from '../logs-ingest/span-log-join.js';
import { collectorMetrics } from '../metrics/collector-metrics.js';
import { METRICS_CONTENT_TYPE, withProcessMetrics } from '../metrics/live-metrics.js';
import type { CountWriter } from '../metrics-ingest/count-writer.js';
import { createMetricsReceiver, type MetricsReceiver } from '../metrics-ingest/metrics-receiver.js';
import type { SettleOptions, SpanWriter, WriterOptions } from '../types.js';
import { createSpanWriter } from '../writer/index.js';
import { handleSignalExport } from './handle-signal-export.js';
import { handleTraces } from './handle-traces.js';
import { type IngestHealth, ingestHealth, registerIngestHealth } from './ingest-health.js';
import { sendProblem } from './send-problem.js';

export interface CollectorOptions extends ReceiverOptions {
  /** The store to write through; opened with `openStore()` (env-configured) when absent. */
  store?: Store;
  /** A ready writer (tests, custom sinks); otherwise one is created on `store`. */
  writer?: SpanWriter;
  writerOptions?: WriterOptions;
  /**
   * A ready writer for call_counts_1m (POST /v1/metrics, MetricsService); otherwise one is created
   * on the store, its log inside the span writer's. Without either (a ready span writer and no
   * store) metrics are not received.
   */
  countWriter?: CountWriter;
  /**
   * A ready writer for otel_logs (POST /v1/logs, LogsService); otherwise one is created on the
   * store, its log inside the span writer's. Without either logs are not received.
   */
  logWriter?: LogWriter;
  /** More Prometheus text appended to /metrics (the alerting role's counters when it runs here). */
  extraMetrics?: () => string | Promise<string>;
  /** The alerts API (/api/alerts/…), served beside OTLP when the alerts role runs in this process. */
  alertsApi?: AlertsApi;
}

export interface Collector {
  port: number;
  host: string;
  /** Base URL, e.g. `http://127.0.0.1:4318`. */
  url: string;
  /** The bound OTLP/gRPC port (TraceService/Export). */
  grpcPort: number;
  /** OTLP/gRPC endpoint as exporters take it, e.g. `http://127.0.0.1:4317` (plaintext). */
  grpcUrl: string;
  writer: SpanWriter;
  /** The writer of the exact counts (call_counts_1m); undefined when metrics are not received. */
  countWriter: CountWriter | undefined;
  /** The writer of log records (otel_logs); undefined when logs are not received. */
  logWriter: LogWriter | undefined;
  /**
   * Resolves once every span, data point and log record acknowledged before the call is inserted:
   * every writer's `settle()`, for callers that read budgets (which take calls from call_counts_1m)
   * or failures (which log records inform) right after exporting. Rejects like `writer.settle()`
   * while ClickHouse fails.
   */
  settle(options?: SettleOptions): Promise<void>;
  /**
   * Stops accepting, finishes in-flight requests, drains the writer (and closes it, releasing its
   * directory lock, when the collector created it). Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Starts the OTLP/HTTP receiver (POST /v1/traces, /v1/metrics, /v1/logs, /healthz, /metrics) and
 * OTLP/gRPC beside it (TraceService, MetricsService, LogsService).
 */
export async function startCollector(options: CollectorOptions = {}): Promise<Collector> {
  const config = resolveReceiverConfig(options);
  let ownedStore: Store | undefined;
  let writer = options.writer;
  const ownsWriter = !writer;
  if (!writer) {
    let store = options.store;
    if (!store) {
      store = await openStore();
      ownedStore = store;
    }
    try {
      writer = createSpanWriter(store, options.writerOptions);
    } catch (err) {
      await ownedStore?.close();
      throw err;
    }
  }
  const activeWriter = writer;
  const schemaStore = options.store ?? ownedStore;
  // Ours to close; a writer the caller passed in is only drained, the caller closes it.
  const finishWriter = () => (ownsWriter ? activeWriter.close() : activeWriter.drain());
  const stats = new ReceiverStats();
  const metrics = withProcessMetrics(collectorMetrics(stats, () => activeWriter.stats()));
  const startedAt = Date.now();
  let closing = false;
  const inFlight = new Set<Promise<void>>();

  const deps: TracesHandlerDeps = {
    config,
    writer: activeWriter,
    stats,
    decodeBudget: new DecodeBudget(config.maxDecodeBytes),
    isClosing: () => closing,
    decoding: { count: 0 },
  };
  // The exact counts (issue 29): their own durable writer, the receiver's limits, budget and token.
  let counts: MetricsReceiver | undefined;
  try {
    counts = createMetricsReceiver({
      receiver: deps,
      countWriter: options.countWriter,
      store: schemaStore,
      spanLogDir: activeWriter.stats().spoolDir,
      writerOptions: options.writerOptions,
    });
  } catch (err) {
    await finishWriter();
    await ownedStore?.close();
    throw err;
  }
  // Log records (issue 33): their own durable writer, joined to the spans they explain.
  let logs: LogsReceiver | undefined;
  const logJoin = new SpanLogJoin({ spansInserted: () => insertedOrTimedOut(activeWriter) });
  try {
    logs = createLogsReceiver({
      receiver: deps,
      logWriter: options.logWriter,
      store: schemaStore,
      spanLogDir: activeWriter.stats().spoolDir,
      writerOptions: options.writerOptions,
      join: logJoin,
    });
  } catch (err) {
    await Promise.all([finishWriter(), counts?.finish()]);
    await ownedStore?.close();
    throw err;
  }
  if (logs) deps.logJoin = logJoin;
  // Each side signal's Export, described once for both transports (ingest/export-signals.ts).
  const logsSignal = logs && logsExport(logs.deps);
  const countsSignal = counts && metricsExport(counts.deps);
  const finishWriters = async () => {
    await Promise.all([finishWriter(), counts?.finish(), logs?.finish()]);
  };
  const track = (done: Promise<void>) => {
    inFlight.add(done);
    done.finally(() => inFlight.delete(done));
  };
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: 120_000 }, (req, res) => {
    if (closing) res.setHeader('connection', 'close');
    track(route(req, res).catch((err: unknown) => internalError(res, err)));
  });
  // Malformed HTTP never reaches a handler; answer it and keep serving.
  server.on('clientError', (_err, socket) => {
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Under the receiver's own access rule: its host, and its ingest token beyond loopback.
    if (options.alertsApi?.handle(req, res, { host: config.host, token: config.token })) return;
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/v1/traces') {
      if (req.method === 'POST') return handleTraces(req, res, deps);
      req.resume();
      return sendProblem(res, 405, 'Method Not Allowed', 'OTLP/HTTP exports are POST /v1/traces', {
        allow: 'POST',
      });
    }
    if (path === '/v1/logs' && logsSignal) {
      if (req.method === 'POST') return handleSignalExport(req, res, logsSignal);
      req.resume();
      return sendProblem(res, 405, 'Method Not Allowed', 'OTLP/HTTP logs exports are POST /v1/logs', {
        allow: 'POST',
      });
    }
    if (path === '/v1/metrics' && countsSignal) {
      if (req.method === 'POST') return handleSignalExport(req, res, countsSignal);
      req.resume();
      return sendProblem(res, 405, 'Method Not Allowed', 'OTLP/HTTP metrics exports are POST /v1/metrics', {
        allow: 'POST',
      });
    }
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD' && (path === '/healthz' || path === '/metrics')) {
      return sendProblem(res, 405, 'Method Not Allowed', `${path} answers GET`, { allow: 'GET, HEAD' });
    }
    if (path === '/healthz') return health(req, res);
    if (path === '/metrics') {
      if (!metricsAllowed(config, req.headers.authorization)) {
        return sendProblem(
          res,
          401,
          'Unauthorized',
          'beyond loopback /metrics needs Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
          { 'www-authenticate': 'Bearer' },
        );
      }
      const body =
        (await metrics.metrics()) +
        ((await counts?.metrics()) ?? '') +
        ((await logs?.metrics()) ?? '') +
        ((await options.extraMetrics?.()) ?? '');
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
      res.end(body);
      return;
    }
    if (path === '/v1/metrics' || path === '/v1/logs') {
      const what = [
        'POST /v1/traces',
        ...(counts ? ['POST /v1/metrics'] : []),
        ...(logs ? ['POST /v1/logs'] : []),
      ].join(', ');
      return sendProblem(
        res,
        404,
        'Not Found',
        `this collector receives ${what} (not ${path}: it was given a ready writer and no store to keep it in)`,
      );
    }
    const routes = [
      'traces go to POST /v1/traces',
      ...(counts ? ['metrics to POST /v1/metrics'] : []),
      ...(logs ? ['logs to POST /v1/logs'] : []),
    ].join(', ');
    sendProblem(res, 404, 'Not Found', `no route for ${req.method} ${path}; OTLP ${routes}`);
  }

  function health(req: IncomingMessage, res: ServerResponse): void {
    const w = activeWriter.stats();
    const ingest = withheldWithoutToken(
      ingestHealth(stats, w, startedAt),
      config.token,
      req.headers.authorization,
    );
    const countsHealth = counts?.health() ?? null;
    const logsHealth = logs?.health() ?? null;
    const degraded =
      ingest.status === 'degraded' ||
      countsHealth?.status === 'degraded' ||
      logsHealth?.status === 'degraded';
    // Spooling still acknowledges durably, so it is "degraded", not down: only shutdown is 503.
    const body = JSON.stringify({
      status: closing ? 'stopping' : degraded ? 'degraded' : 'ok',
      problems: [...ingest.problems, ...(countsHealth?.problems ?? []), ...(logsHealth?.problems ?? [])],
      writer: {
        ackAfter: w.ackAfter,
        accepted: w.accepted,
        inserted: w.inserted,
        // Acknowledged, not yet queryable: 0 means SQL sees every acknowledged span.
        pendingInsert: w.pendingInsert,
        queueDepth: w.queueDepth,
        spoolDepth: w.spoolDepth,
        spooled: w.spooled,
        replayed: w.replayed,
        insertErrors: w.insertErrors,
        quarantined: w.quarantined,
      },
      ingest,
      // POST /v1/metrics and MetricsService: data points accepted, refused, ignored, stored.
      metrics: countsHealth,
      // POST /v1/logs and LogsService: log records accepted, refused, classified, stored.
      logs: logsHealth,
      // The schema this collector checked (and migrated) at open: `faultline doctor` reads it.
      schema: schemaStore?.schemaVersion?.() ?? null,
    });
    res.writeHead(closing ? 503 : 200, { 'content-type': 'application/json' });
    res.end(body);
  }

  let grpc: GrpcReceiver;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    try {
      grpc = await startGrpcReceiver(deps, track, counts?.deps, logs?.deps);
    } catch (err) {
      await new Promise((resolve) => server.close(resolve));
      throw err;
    }
  } catch (err) {
    // Nothing was accepted: hand the log and the data directory back before reporting.
    await finishWriters();
    await ownedStore?.close();
    throw err;
  }
  const unregister = registerIngestHealth(() => ingestHealth(stats, activeWriter.stats(), startedAt));
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests already past the closing check finish reading and decoding, and hand their rows
    // to the writer; later ones get 503 + connection: close (gRPC calls: UNAVAILABLE, the server
    // stays up to say so until the writer has drained). Then the writer drains, which
    // completes those writes, and their requests are acknowledged (only once durable).
    // A client stalled mid-upload would hold shutdown forever: after the grace period it is cut.
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    while (deps.decoding.count > 0) await new Promise((r) => setTimeout(r, 5));
    clearTimeout(cut);
    unregister();
    await finishWriters();
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    server.closeIdleConnections();
    const forced = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    await Promise.all([stopped, grpc.shutdown(CLOSE_GRACE_MS)]);
    clearTimeout(forced);
    if (ownedStore) await ownedStore.close();
  }

  return {
    port: address.port,
    host: address.address,
    url: `http://${urlHost}:${address.port}`,
    grpcPort: grpc.port,
    grpcUrl: `http://${grpc.address}`,
    writer: activeWriter,
    countWriter: counts?.writer,
    logWriter: logs?.writer,
    settle: async (settleOptions) => {
      await Promise.all([
        activeWriter.settle(settleOptions),
        counts?.writer.settle(settleOptions),
        logs?.writer.settle(settleOptions),
      ]);
    },
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}

/**
 * /healthz answers without the ingest token (it carries counts), but an insert error's text can
 * quote a row ClickHouse failed to parse, and the log's path describes the host: with a token
 * configured, those two come only to a request that sends it.
 */
function withheldWithoutToken(h: IngestHealth, token: string | undefined, authorization: string | undefined) {
  if (token === undefined || checkBearer(authorization, token)) return h;
  const hidden = 'withheld: send Authorization: Bearer <FAULTLINE_INGEST_TOKEN>';
  const hide = (v: string | null) => (v === null ? null : hidden);
  return {
    ...h,
    walDir: hidden,
    insertErrors: { ...h.insertErrors, lastMessage: hide(h.insertErrors.lastMessage) },
    quarantine: { ...h.quarantine, lastReason: hide(h.quarantine.lastReason), file: hide(h.quarantine.file) },
    walError: h.walError && { ...h.walError, message: hidden },
  };
}

/**
 * /metrics: open on loopback (a Prometheus on the same host). Beyond it the counts describe the
 * deployment, so they take the ingest token, like /v1/traces. With no token the receiver only
 * listens beyond loopback under FAULTLINE_ALLOW_INSECURE_BIND=1, which opens /metrics as well.
 */
function metricsAllowed(config: ReceiverConfig, authorization: string | undefined): boolean {
  if (isLoopback(config.host) || config.token === undefined) return true;
  return checkBearer(authorization, config.token);
}

/** How long idle-but-open connections may linger at shutdown before they are cut. */
const CLOSE_GRACE_MS = 5_000;

function internalError(res: ServerResponse, err: unknown): void {
  console.error('[faultline-collector] request failed:', err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendProblem(res, 500, 'Internal Server Error', 'the collector failed to handle this request; see its log');
}
