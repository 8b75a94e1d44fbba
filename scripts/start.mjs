// `npm start`: the collector (OTLP/HTTP) and the dashboard (Next.js) in one process over one Store.
// One process because an embedded chDB data directory can be opened by one process only: the
// receiver writes and the pages read through the same engine, kept on globalThis by openStore().
// Against a ClickHouse server (FAULTLINE_CLICKHOUSE_URL) the roles can also run apart, each with
// `--role`, since the server, not a local directory, is then what they share: many stateless
// collectors, one dashboard, and one alerts role (one evaluator, so an alert is sent once).
//
//   npm start [-- --port 3000 --otlp-port 4318 --otlp-grpc-port 4317 --host 127.0.0.1 --data-dir <dir> --role all|collector|dashboard|alerts]
//   env: PORT / FAULTLINE_DASHBOARD_PORT, FAULTLINE_OTLP_PORT, FAULTLINE_OTLP_GRPC_PORT, FAULTLINE_DASHBOARD_HOST,
//        FAULTLINE_DATA_DIR or FAULTLINE_CLICKHOUSE_URL (see collector), FAULTLINE_SLO_TARGET,
//        FAULTLINE_ALERTMANAGER_URL, FAULTLINE_ALERT_WEBHOOK_URL, FAULTLINE_ALERT_INTERVAL_S, FAULTLINE_ALERT_RULES,
//        FAULTLINE_ROLE, FAULTLINE_ALERTS_PORT, FAULTLINE_ALERTS_HOST,
//        FAULTLINE_DASHBOARD_TOKEN / _USERS_FILE / _TRUSTED_PROXIES / _PUBLIC_URL / _ALLOWED_HOSTS.
// Every dashboard request passes the gate in dashboard/src/server/auth/ before Next sees it
// (Host, Origin, body type, sign-in); beyond loopback the dashboard will not start without an auth mode.
// Port 0 picks a free port; the chosen URLs are printed as `faultline: dashboard <url>` and
// `faultline: otlp <url>` lines (tests read them), and OTLP/gRPC's as `faultline: otlp-grpc <host:port>`.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const ROLES = ['collector', 'dashboard', 'alerts'];

const USAGE = `Usage: npm start -- [options]

Runs the OTLP collector, the dashboard and the alert evaluator in one process (default), or some of them.

Options:
  --port <n>              dashboard port (PORT / FAULTLINE_DASHBOARD_PORT, default 3000; 0 = any free port)
  --otlp-port <n>         OTLP/HTTP port (FAULTLINE_OTLP_PORT, default 4318; 0 = any free port)
  --otlp-grpc-port <n>    OTLP/gRPC port (FAULTLINE_OTLP_GRPC_PORT, default 4317; 0 when --otlp-port is 0)
  --host <addr>           dashboard address (FAULTLINE_DASHBOARD_HOST, default 127.0.0.1)
  --clickhouse-url <url>  a ClickHouse server's HTTP URL instead of embedded chDB
                          (FAULTLINE_CLICKHOUSE_URL; _USER, _PASSWORD, _DATABASE from the environment)
  --data-dir <dir>        the embedded chDB data directory (FAULTLINE_DATA_DIR, default ./.faultline/data)
  --role <roles>          all (default), or one or more of collector, dashboard, alerts, comma-separated
                          (FAULTLINE_ROLE; --only is the same). Roles apart need a ClickHouse server:
                          an embedded data directory (FAULTLINE_DATA_DIR) opens in one process only.
                          Run one alerts role per deployment: it is the one that sends alerts.
  --alerts-port <n>       the alerts role's /healthz and /metrics when it runs without the collector
                          (FAULTLINE_ALERTS_PORT, default 9470; beside the collector they are on its port)
  --hash-password         read a password from stdin, print its scrypt hash for
                          FAULTLINE_DASHBOARD_USERS_FILE (a line: name:<hash>) and exit
  -h, --help              show this help

Dashboard authentication (required when --host is not loopback; see README "Authentication"):
  FAULTLINE_DASHBOARD_TOKEN           shared access token (16+ characters): sign in at /login
  FAULTLINE_DASHBOARD_USERS_FILE      name:scrypt$… lines (see --hash-password): sign in at /login
  FAULTLINE_DASHBOARD_TRUSTED_PROXIES addresses/CIDRs of an authenticating proxy sending X-Forwarded-User
  FAULTLINE_DASHBOARD_PUBLIC_URL      the URL people open (its origin and host are accepted)
  FAULTLINE_DASHBOARD_ALLOWED_HOSTS   further host names the dashboard answers to
`;

function fail(message) {
  console.error(`faultline start: ${message}`);
  process.exit(2);
}

function port(name, value, fallback) {
  const raw = value ?? fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    fail(`${name}=${raw} is not a port: give an integer 0–65535 (0 = any free port).`);
  return n;
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      'otlp-port': { type: 'string' },
      'otlp-grpc-port': { type: 'string' },
      host: { type: 'string' },
      'clickhouse-url': { type: 'string' },
      'data-dir': { type: 'string' },
      role: { type: 'string' },
      only: { type: 'string' },
      'alerts-port': { type: 'string' },
      'hash-password': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  fail(`${err.message}. Run \`npm start -- --help\` for the options.`);
}
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (args['hash-password']) {
  const { hashPassword } = await import('../dashboard/src/server/auth/index.mjs');
  const password = await readPassword();
  if (password.length < 12) fail('--hash-password: give a password of at least 12 characters.');
  console.log(await hashPassword(password));
  process.exit(0);
}

const env = process.env;
if (args['clickhouse-url'] !== undefined) env.FAULTLINE_CLICKHOUSE_URL = args['clickhouse-url'];
if (args['data-dir'] !== undefined) {
  if (!args['data-dir'].trim())
    fail('--data-dir is empty: give a directory, e.g. --data-dir ./.faultline/data.');
  env.FAULTLINE_DATA_DIR = args['data-dir'];
}
const roleFlag = args.role !== undefined ? '--role' : args.only !== undefined ? '--only' : 'FAULTLINE_ROLE';
const roleArg = args.role ?? args.only ?? env.FAULTLINE_ROLE ?? 'all';
const roles = new Set(
  roleArg === 'all'
    ? ROLES
    : roleArg
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
);
for (const r of roles)
  if (!ROLES.includes(r))
    fail(
      `${roleFlag} ${roleArg}: "${r}" is not a role. Give all, or one or more of ${ROLES.join(', ')} separated by commas.`,
    );
if (roles.size === 0) fail(`${roleFlag} is empty: give all, or one or more of ${ROLES.join(', ')}.`);
if (roles.size < ROLES.length && !env.FAULTLINE_CLICKHOUSE_URL)
  fail(
    `${roleFlag} ${roleArg} needs a ClickHouse server the other roles can reach too: set FAULTLINE_CLICKHOUSE_URL ` +
      '(or --clickhouse-url). An embedded data directory opens in one process only, so over embedded ' +
      'chDB run every role together with plain `npm start`.',
  );
// A dashboard alone only reads (often as a read-only ClickHouse user): it checks the schema's
// version and never alters it; the collectors, the alerts role or `faultline migrate` do.
if (roles.size === 1 && roles.has('dashboard') && env.FAULTLINE_MIGRATE_ON_START === undefined)
  env.FAULTLINE_MIGRATE_ON_START = 'false';
const runCollector = roles.has('collector');
const runDashboard = roles.has('dashboard');
const runAlerts = roles.has('alerts');
const dashboardPort = port('--port', args.port ?? env.FAULTLINE_DASHBOARD_PORT ?? env.PORT, 3000);
const otlpPort = port('--otlp-port', args['otlp-port'] ?? env.FAULTLINE_OTLP_PORT, 4318);
// Unset: the collector's own default (FAULTLINE_OTLP_GRPC_PORT, else 4317, else 0 beside an ephemeral HTTP port).
const grpcPort =
  args['otlp-grpc-port'] === undefined ? undefined : port('--otlp-grpc-port', args['otlp-grpc-port']);
const host = args.host ?? env.FAULTLINE_DASHBOARD_HOST ?? '127.0.0.1';
const alertsPort = port('--alerts-port', args['alerts-port'] ?? env.FAULTLINE_ALERTS_PORT, 9470);

// Checked before anything opens: a dashboard beyond loopback without an auth mode, or a bad
// auth setting, stops here with the variable to set. The messages never carry a secret.
let auth;
let authConfig;
if (runDashboard) {
  auth = await import('../dashboard/src/server/auth/index.mjs');
  try {
    authConfig = auth.resolveAuthConfig(env, { bindHost: host });
  } catch (err) {
    fail(err.message);
  }
}

function explain(what, err) {
  if (err?.code === 'EADDRINUSE') {
    fail(
      `${what}: port ${err.port ?? ''} is already in use. Stop the other process or choose another port (0 = any free port).`,
    );
  }
  fail(`${what}: ${err?.message ?? err}`);
}

const { openStore } = await import('@faultline/sql');
const { startCollector, createAlertEvaluator, createAlertsApi, resolveAlertConfig, startAlertsServer } =
  await import('@faultline/collector');
let alertConfig;
if (runAlerts) {
  try {
    alertConfig = resolveAlertConfig(env);
  } catch (err) {
    fail(err.message);
  }
}
const store = await openStore().catch((err) => explain('opening the store', err));

// Burn-rate and class alerts, evaluated every FAULTLINE_ALERT_INTERVAL_S and delivered in the
// background so ingest never waits for a receiver. Beside the collector their counters join its
// /metrics; alone they get a port of their own.
let alerts;
if (runAlerts) alerts = createAlertEvaluator({ store, config: alertConfig });

let collector;
if (runCollector) {
  collector = await startCollector({
    store,
    port: otlpPort,
    grpcPort,
    extraMetrics: () => alerts?.metrics() ?? '',
    // Silences and the services' verdicts, beside OTLP when the alerts role runs here.
    alertsApi: alerts ? createAlertsApi({ evaluator: alerts }) : undefined,
  }).catch((err) =>
    explain(
      `starting the OTLP receiver on port ${otlpPort} (--otlp-port / FAULTLINE_OTLP_PORT) and its gRPC port (--otlp-grpc-port / FAULTLINE_OTLP_GRPC_PORT)`,
      err,
    ),
  );
  const otlpUrl = `http://${env.FAULTLINE_OTLP_HOST ?? '127.0.0.1'}:${collector.port}`;
  // The empty state tells users where to point OTEL_EXPORTER_OTLP_ENDPOINT.
  env.FAULTLINE_OTLP_ENDPOINT = otlpUrl;
  console.log(`faultline: otlp ${otlpUrl}/v1/traces`);
  console.log(`faultline: otlp-grpc ${collector.grpcUrl.replace(/^http:\/\//, '')}`);
}

let app;
let server;
let dashboardUrl;
if (runDashboard) {
  const { default: next } = await import('next');
  app = next({ dev: false, dir: resolve(root, 'dashboard'), hostname: host, port: dashboardPort });
  await app.prepare();
  const handle = app.getRequestHandler();
  const gate = auth.createRequestGate(authConfig);
  server = createServer((req, res) => {
    // The container's health probe: says only that the pages are served, so it needs no sign-in.
    if (req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', role: 'dashboard' }));
      return;
    }
    gate(req, res, () => handle(req, res));
  });
  await new Promise((ok, ko) => {
    server.once('error', ko);
    server.listen(dashboardPort, host, ok);
  }).catch((err) => explain(`starting the dashboard on ${host}:${dashboardPort} (--port / PORT)`, err));
  const shownHost = host.includes(':') ? `[${host}]` : host;
  dashboardUrl = `http://${shownHost}:${server.address().port}`;
  console.log(`faultline: dashboard ${dashboardUrl}`);
  console.log(`faultline: dashboard auth ${auth.describeAuth(authConfig)}`);
}
let alertsServer;
if (alerts) {
  // Links in alerts open the dashboard this process serves, unless a public URL says otherwise.
  if (server && !env.FAULTLINE_DASHBOARD_PUBLIC_URL) alertConfig.dashboardUrl = dashboardUrl;
  alerts.start();
  const to = [alertConfig.alertmanagerUrl && 'alertmanager', alertConfig.webhookUrl && 'webhook'].filter(
    Boolean,
  );
  console.log(
    `faultline: alerts every ${alertConfig.intervalS}s${to.length ? ` to ${to.join(', ')}` : ' (no receiver set)'}`,
  );
  if (collector) console.log(`faultline: alerts API ${collector.url}/api/alerts/silences`);
  if (!collector) {
    alertsServer = await startAlertsServer({
      evaluator: alerts,
      intervalS: alertConfig.intervalS,
      port: alertsPort,
      host: env.FAULTLINE_ALERTS_HOST ?? '127.0.0.1',
      token: env.FAULTLINE_INGEST_TOKEN,
    }).catch((err) =>
      explain(
        `starting the alerts role's /healthz and /metrics on port ${alertsPort} (--alerts-port / FAULTLINE_ALERTS_PORT)`,
        err,
      ),
    );
    console.log(`faultline: alerts ${alertsServer.url}/metrics`);
    console.log(`faultline: alerts API ${alertsServer.url}/api/alerts/silences`);
  }
}

// The data directory's lock records where this process answers, so `faultline sql`, `migrate`
// and `doctor` with the same FAULTLINE_DATA_DIR find it (they may not open the directory while it runs).
if (store.dataDir) {
  const { advertiseEndpoints } = await import('@faultline/sql');
  const dialable = (url) =>
    url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, (_m, h) =>
      h === '[::]' ? 'http://[::1]' : 'http://127.0.0.1',
    );
  const endpoints = {};
  if (collector) {
    endpoints.otlp = dialable(collector.url);
    endpoints.otlpGrpc = collector.grpcUrl.replace(/^http:\/\//, '');
  }
  if (dashboardUrl) {
    endpoints.dashboard = dialable(dashboardUrl);
    endpoints.sql = `${endpoints.dashboard}/api/sql`;
  }
  if (alertsServer) endpoints.alerts = dialable(alertsServer.url);
  try {
    advertiseEndpoints(store.dataDir, endpoints);
  } catch (err) {
    console.error(
      `faultline: could not record this process's URLs in the data directory's lock: ${err.message}`,
    );
  }
}
console.log(`faultline: store ${store.mode}${store.dataDir ? ` (${store.dataDir})` : ''}`);
// The write-ahead log: under the data directory unless FAULTLINE_SPOOL_DIR names one; locked by this process.
if (collector) console.log(`faultline: write-ahead log ${collector.writer.stats().spoolDir}`);

/** The password for --hash-password: piped on stdin, or typed at a terminal without echo. */
async function readPassword() {
  const input = process.stdin;
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  process.stderr.write('password (not shown): ');
  input.setRawMode(true);
  input.setEncoding('utf8');
  let text = '';
  for await (const chunk of input) {
    for (const c of chunk) {
      if (c === '\u0003') process.exit(130); // Ctrl-C
      if (c === '\r' || c === '\n') {
        input.setRawMode(false);
        process.stderr.write('\n');
        return text;
      }
      text = c === '\u007f' ? text.slice(0, -1) : text + c;
    }
  }
  return text;
}

let closing = false;
async function shutdown(signal) {
  if (closing) return;
  closing = true;
  console.log(`faultline: ${signal}, shutting down`);
  server?.close();
  server?.closeAllConnections?.();
  try {
    await alerts?.stop();
    await alertsServer?.close();
    await collector?.close();
    await app?.close?.();
    await store.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
