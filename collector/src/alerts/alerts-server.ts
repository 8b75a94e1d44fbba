import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopback } from '../config/receiver-config.js';
import { checkBearer } from '../ingest/check-bearer.js';
import { METRICS_CONTENT_TYPE, withProcessMetrics } from '../metrics/live-metrics.js';
import { sendProblem } from '../server/send-problem.js';
import type { AlertEvaluator } from './alert-evaluator.js';
import { createAlertsApi } from './alerts-api.js';

/** The alerts role's own port (/healthz, /metrics) when it runs apart from the collector. */
export const DEFAULT_ALERTS_PORT = 9470;

/** Evaluations missed in a row before /healthz says the evaluator is stalled. */
const STALE_INTERVALS = 3;

export interface AlertsServerOptions {
  evaluator: AlertEvaluator;
  intervalS: number;
  port: number;
  host?: string;
  /** Required for /metrics and the alerts API beyond loopback (the ingest token, FAULTLINE_INGEST_TOKEN). */
  token?: string;
  now?: () => number;
}

export interface AlertsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The alerts role's HTTP face: `/healthz` (ok while evaluations succeed, degraded once the last
 * success is STALE_INTERVALS intervals old), `/metrics` (the outbound counters the generated
 * Prometheus rules read, firing alerts, evaluator health) and the alerts API under /api/alerts/
 * (silences, the services' verdicts: alerts-api.ts). Rules come from env and the rules file.
 */
export async function startAlertsServer(o: AlertsServerOptions): Promise<AlertsServer> {
  const host = o.host ?? '127.0.0.1';
  if (!isLoopback(host) && !o.token)
    throw new RangeError(
      `the alerts role listens on ${host}, beyond loopback: set FAULTLINE_INGEST_TOKEN so /metrics and the alerts API need it, or listen on 127.0.0.1.`,
    );
  const now = o.now ?? Date.now;
  const startedS = Math.floor(now() / 1000);
  const metrics = withProcessMetrics(o.evaluator.registry);
  const api = createAlertsApi({ evaluator: o.evaluator, now });
  const server = createServer((req, res) => {
    if (api.handle(req, res, { host, token: o.token })) return;
    req.resume();
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/healthz' && path !== '/metrics')
      return sendProblem(
        res,
        404,
        'Not Found',
        'the alerts role answers GET /healthz, GET /metrics and the alerts API under /api/alerts/',
      );
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendProblem(res, 405, 'Method Not Allowed', `${path} answers GET`, { allow: 'GET, HEAD' });
    if (path === '/metrics') {
      if (!isLoopback(host) && !checkBearer(req.headers.authorization, o.token ?? ''))
        return sendProblem(
          res,
          401,
          'Unauthorized',
          'beyond loopback /metrics needs Authorization: Bearer <FAULTLINE_INGEST_TOKEN>',
          { 'www-authenticate': 'Bearer' },
        );
      metrics.metrics().then(
        (body) => {
          res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
          res.end(body);
        },
        (err: unknown) => {
          console.error('[faultline] alerts /metrics failed:', err);
          sendProblem(res, 500, 'Internal Server Error', 'rendering /metrics failed; see the log');
        },
      );
      return;
    }
    const h = o.evaluator.health();
    const sinceS = Math.floor(now() / 1000) - (h.lastSuccessS ?? startedS);
    const stalled = sinceS > STALE_INTERVALS * o.intervalS + o.intervalS;
    const body = {
      status: stalled ? 'degraded' : 'ok',
      problems: stalled
        ? [`no successful alert evaluation for ${sinceS} s (interval ${o.intervalS} s); see the log`]
        : [],
      role: 'alerts',
      ...h,
    };
    res.writeHead(stalled ? 503 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(o.port, host, () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    port,
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
