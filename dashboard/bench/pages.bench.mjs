// Dashboard speed at scale: seeds 10,000,000 spans (1,000,000 classified failures, 2,000,000
// workflows) over the last 24 h into an embedded engine in a temp dir with sql/bench/seed.sql
// (INSERT … SELECT FROM numbers(), so every materialized view fills as in production), then prints
// the p50/p95 of each panel query of the Overview, Workflows, Retries and Request pages, and each
// page's server render time (Next.js, full HTML, range=24h).
//   npm run bench -- pages        (needs `npm run build` first: it serves dashboard/.next)
//   FAULTLINE_BENCH_SPANS=1000000 npm run bench -- pages   (a quicker, smaller run)
//   FAULTLINE_BENCH_BEFORE=<commit> npm run bench -- pages  (each panel beside the same query file
//     at <commit>, run turn about on the same data: the cost of a change to the queries)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { burnWindowParams, readWorkflowsSampled } from '@faultline/collector/budget';
import { fmt, MAX_PAIR_ROUNDS, PAIR_ROUNDS, RUNS, report, timeIt, timePair } from './lib/timing.mjs';

const root = resolve(import.meta.dirname, '../..');
const SPANS = Number(process.env.FAULTLINE_BENCH_SPANS ?? 10_000_000);
const WINDOW_S = 24 * 3600;
const PANEL_MS = 300;
const PAGE_MS = 1000;
const BEFORE = process.env.FAULTLINE_BENCH_BEFORE ?? '';
if (BEFORE !== '' && !/^[0-9a-f]{7,40}$/.test(BEFORE)) {
  console.error(`FAULTLINE_BENCH_BEFORE=${BEFORE} must be a commit hash (7 to 40 hex digits)`);
  process.exit(2);
}
if (!Number.isInteger(SPANS) || SPANS < 1000) {
  console.error(`FAULTLINE_BENCH_SPANS=${process.env.FAULTLINE_BENCH_SPANS} must be an integer ≥ 1000`);
  process.exit(2);
}
if (!existsSync(join(root, 'dashboard/.next/BUILD_ID'))) {
  console.error(
    'dashboard/.next is missing: run `npm run build` (or `npm run build -w @faultline/dashboard`) first.',
  );
  process.exit(2);
}

const dataDir = mkdtempSync(join(tmpdir(), 'faultline-bench-pages-'));
process.env.FAULTLINE_DATA_DIR = dataDir;
const { openStore } = await import('@faultline/sql');
const store = await openStore({ dataDir });
const n = (v) => Number(v).toLocaleString('en-US');

async function seed(endS) {
  const seedSql = readFileSync(join(root, 'sql/bench/seed.sql'), 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  const t = performance.now();
  await store.client.command({
    query: seedSql,
    query_params: { spans: SPANS, window_s: WINDOW_S, end: endS },
  });
  const seedS = (performance.now() - t) / 1000;
  const { rows } = await store.runReadOnly(
    'SELECT (SELECT count() FROM otel_traces) AS spans, (SELECT count() FROM failures) AS failures, (SELECT count() FROM calls_1m) AS rollup_rows',
  );
  const c = rows[0];
  console.log(
    `seeded ${n(c.spans)} spans (${n(c.failures)} failures; calls_1m ${n(c.rollup_rows)} rows) in ${seedS.toFixed(1)} s`,
  );
}

/** A request in the middle of the window, looked up both ways the Request page allows. */
async function sampleRequest() {
  const correlationId = `wf-${Math.floor(SPANS / 10)}`;
  const { rows } = await store.runReadOnly(
    "SELECT any(TraceId) AS trace_id FROM otel_traces WHERE SpanAttributes['faultline.correlation_id'] = {id:String}",
    { id: correlationId },
  );
  return { correlationId, traceId: String(rows[0].trace_id) };
}

/** The edges' endpoints, as the Dependencies page asks request_callees for them (dependency-rows.ts). */
async function edgeEndpoints(params) {
  const { rows } = await store.runNamed('dashboard/dependencies', { ...params, per_edge: 3 });
  return [...new Set(rows.map((r) => String(r.dependency).split(' ')[0]))].sort();
}

/** Every edge's service and dependency, as the page passes the sampled edges'. */
async function edgeKeys(params) {
  const { rows } = await store.runNamed('dashboard/dependencies', { ...params, per_edge: 3 });
  return {
    services: [...new Set(rows.map((r) => String(r.service)))].sort(),
    dependencies: [...new Set(rows.map((r) => String(r.dependency)))].sort(),
  };
}

async function benchPanels(title, panels) {
  if (BEFORE !== '') return benchPanelsBeside(title, panels);
  console.log(`\n${title}, ${RUNS} runs each (ms)`.padEnd(53) + '    p50     p95');
  for (const [label, params] of panels) {
    const name = label.split(' ')[0];
    const timing = await timeIt(() => store.runNamed(name, params));
    report(label, timing, PANEL_MS);
    if (timing.p95 > PANEL_MS) await profileMiss(name, params, timing);
  }
}

/** The query file as it was at FAULTLINE_BENCH_BEFORE, or null where it did not exist then. */
function queryBefore(name) {
  try {
    const text = execFileSync('git', ['show', `${BEFORE}:sql/queries/${name}.sql`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return text
      .replace(/^--.*$/gm, '')
      .trim()
      .replace(/;\s*$/, '');
  } catch {
    return null;
  }
}

/**
 * Each panel beside its query at FAULTLINE_BENCH_BEFORE, turn about on the same store: the before
 * text runs on today's schema (a query that no longer runs there says so), with only the parameters
 * it names.
 */
async function benchPanelsBeside(title, panels) {
  console.log(
    `\n${title}, ${PAIR_ROUNDS} to ${MAX_PAIR_ROUNDS} rounds (more for a short panel) of ${RUNS} runs each turn about (ms)`.padEnd(
      53,
    ) +
      `  before ${BEFORE.slice(0, 7)} p50/p95    now p50/p95   now/before p50, p95 (median of the rounds' ratios)`,
  );
  for (const [label, params, beforeName] of panels) {
    const name = label.split(' ')[0];
    const before = queryBefore(beforeName ?? name);
    const now = () => store.runNamed(name, params);
    if (before === null) {
      const t = await timeIt(now);
      console.log(`${label.padEnd(52)}  (new since ${BEFORE.slice(0, 7)})     ${fmt(t.p50)} ${fmt(t.p95)}`);
      continue;
    }
    const used = Object.fromEntries(Object.entries(params).filter(([k]) => before.includes(`{${k}:`)));
    const runBefore = async () =>
      (await store.client.query({ query: before, query_params: used, format: 'JSON' })).json();
    try {
      await runBefore();
    } catch (err) {
      const t = await timeIt(now);
      console.log(
        `${label.padEnd(52)}  (does not run on this schema: ${String(err.message).split('\n')[0].slice(0, 60)})  ${fmt(t.p50)} ${fmt(t.p95)}`,
      );
      continue;
    }
    const { a: b, b: a, ratio, rounds } = await timePair(runBefore, now);
    const ratio50 = ratio.p50;
    const ratio95 = ratio.p95;
    const mark = ratio95 > 1.1 ? '  p95 NOT within 10%' : '';
    console.log(
      `${label.padEnd(52)}${fmt(b.p50)} ${fmt(b.p95)}   ${fmt(a.p50)} ${fmt(a.p95)}   ${ratio50.toFixed(2)}x ${ratio95.toFixed(2)}x  (${rounds} rounds)${mark}`,
    );
  }
}

/**
 * One panel against itself, timed as the comparisons are: the ratios a comparison can print when
 * nothing changed (this machine's noise), printed before them to read them by.
 */
async function noiseFloor(name, params) {
  const run = () => store.runNamed(name, params);
  const { a, b, ratio, rounds } = await timePair(run, run);
  console.log(
    `\nnoise floor: ${name} against itself`.padEnd(53) +
      `${fmt(a.p50)} ${fmt(a.p95)}   ${fmt(b.p50)} ${fmt(b.p95)}   ${ratio.p50.toFixed(2)}x ${ratio.p95.toFixed(2)}x  (${rounds} rounds)`,
  );
}

/**
 * Where a panel over its target spends its time, from the engine's own statistics of one more
 * run: what it read and how long the engine took, so the rest of the wall time is the store's
 * (parameters, result transfer and parsing).
 */
async function profileMiss(name, params, timing) {
  const { statistics: st, rows } = await store.runNamed(name, params);
  if (!st) return;
  const engineMs = st.elapsed * 1000;
  console.log(
    `  profile of the miss: the engine read ${n(st.rows_read)} rows (${(st.bytes_read / 2 ** 20).toFixed(1)} MiB) in ${engineMs.toFixed(1)} ms (${((engineMs * 1e6) / Math.max(1, st.rows_read)).toFixed(0)} ns per row read, p50 wall ${timing.p50.toFixed(1)} ms) for ${n(rows.length)} result rows`,
  );
}

async function benchPages(pages) {
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: join(root, 'dashboard'), hostname: '127.0.0.1', port: 0 });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => handle(req, res));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  console.log(`\npage server render (full HTML), ${RUNS} runs each (ms)`.padEnd(53) + '    p50     p95');
  try {
    for (const [path, marker] of pages) {
      const timing = await timeIt(async () => {
        const res = await fetch(base + path);
        const html = await res.text();
        // A page that rendered an error or the empty state would be fast and wrong: check the content.
        if (res.status !== 200 || !html.includes(marker)) {
          throw new Error(`GET ${path}: HTTP ${res.status}, no ${marker} in the page`);
        }
      });
      report(`GET ${path}`, timing, PAGE_MS);
    }
  } finally {
    server.close();
    await app.close?.();
  }
}

try {
  const endS = Math.floor(Date.now() / 1000);
  await seed(endS);
  const { correlationId, traceId } = await sampleRequest();

  // The same parameters the pages send for ?range=24h with no filters (see dashboard/src/server).
  const from = Math.floor((endS + 1 - WINDOW_S) / 60) * 60;
  const to = Math.ceil((endS + 1) / 60) * 60;
  const filters = { from, to, service: '', source: '' };
  const wf = { from, to, service: '' };
  // The queries that sum workflow weights take `sampled`, asked once per render as the pages ask
  // it (workflows_sampled): the seed holds no sampled span, so it is false and they read no weight;
  // the steps panel reads workflows_by_steps_stored then.
  const runDashboard = async (name, params) => (await store.runNamed(`dashboard/${name}`, params)).rows;
  const askSampled = (fromS) => readWorkflowsSampled(runDashboard, fromS);
  const wfWeighted = { ...wf, sampled: await askSampled(from) };
  // The budget's SLO period (30 days by default) ends with the range.
  // The burn windows come from their one home, as the pages pass them (budget-data.ts).
  const budget = { ...filters, period_from: to - 30 * 86_400, ...burnWindowParams() };
  const budgetFailures = { ...budget, class: '', dependency: '' };
  const budgetRequestsRange = { from, to, service: '', period_from: to - 30 * 86_400, ...burnWindowParams() };
  const budgetRequests = {
    ...budgetRequestsRange,
    sampled: await askSampled(budgetRequestsRange.period_from),
  };
  // The Overview's and Dependencies page's panels also narrow by class and dependency.
  const narrowed = { ...filters, class: '', dependency: '' };
  if (BEFORE !== '') {
    await noiseFloor('dashboard/budget_failures', budgetFailures);
    // A panel of about 10 ms: one stall weighs more on its p95, so its noise is printed too.
    await noiseFloor('dashboard/budget_calls', budget);
  }
  await benchPanels('overview panel queries', [
    ['dashboard/budget_calls', budget],
    ['dashboard/budget_failures', budgetFailures],
    ['dashboard/budget_requests', budgetRequests],
    // Where the preload counted minutes of the period, the page reads these instead (budget-reads.ts).
    ['dashboard/budget_calls_beside_exact', budget],
    ['dashboard/budget_requests_beside_exact', budgetRequests],
    ['dashboard/overview_matrix', narrowed],
    ['dashboard/overview_timeline', { ...narrowed, bucket: 900 }],
    ['dashboard/overview_top_codes', { ...narrowed, limit: 15 }],
    ['dashboard/filter_options', { from, to }],
    ['dashboard/budget_failures (service filter)', { ...budgetFailures, service: 'payments' }],
  ]);
  // What every failure page adds since issue 31: deploy markers and the filter suggestions (read on
  // each render), and the panels under a code, version, endpoint or message filter.
  const everything = {
    ...narrowed,
    code: '',
    none: '',
    outbound: 0,
    counted: '',
    left_out: 'validation',
    endpoint: '',
    q: '',
    version: '',
  };
  await benchPanels('time and narrowing queries', [
    ['dashboard/service_versions', { from, to, service: '', bucket: 900 }],
    ['dashboard/narrowing_options', { from, to, service: '' }],
    ['dashboard/narrowed_failures (message search)', { ...everything, q: 'timeout', limit: 5000 }],
    ['dashboard/narrowed_failures (version)', { ...everything, version: '1.0.0', limit: 5000 }],
    ['dashboard/narrowed_timeline (code)', { ...everything, code: '503', bucket: 900 }],
  ]);
  await benchPanels('dependencies panel queries', [
    ['dashboard/dependencies', { ...narrowed, per_edge: 3 }],
    ['dashboard/dependencies (service filter)', { ...narrowed, service: 'payments', per_edge: 3 }],
    // What the page reads beside the edges (dependency-rows.ts): who answered at their endpoints,
    // and the weighted latency of the sampled edges (every edge here, as if all were sampled).
    [
      "dashboard/request_callees (the edges' endpoints)",
      { from, to, endpoints: await edgeEndpoints(narrowed) },
    ],
    [
      'dashboard/dependency_latency_weighted (every edge)',
      { from, to, source: '', ...(await edgeKeys(narrowed)) },
    ],
  ]);
  await benchPanels('workflows panel queries', [
    // Asked once per render of the Workflows page and the Overview, before the panels below.
    ['dashboard/workflows_sampled (once per render)', { from }],
    // The steps panel where no workflow of the range was sampled (workflow-data.ts), beside
    // workflows_by_steps as it was: the page reads the stored count then.
    [
      'dashboard/workflows_by_steps_stored (the steps panel, no sampled workflow)',
      wf,
      'dashboard/workflows_by_steps',
    ],
    // Every weight read, whatever the range holds: the console's, and the steps panel's where a
    // workflow was sampled (so not timed again below).
    ['dashboard/workflows_by_steps (console; the steps panel, a sampled workflow)', wf],
    // The console's: the Workflows page derives its summary from the steps panel's rows.
    ['dashboard/workflows_summary (console)', wf],
    ['dashboard/workflows_first_failure', wfWeighted],
    ['dashboard/workflows_recent', { ...wf, failed_only: false, limit: 50 }],
    ['dashboard/workflows_recent (failed only)', { ...wf, failed_only: true, limit: 50 }],
    ['dashboard/workflows_summary (console, service filter)', { ...wf, service: 'payments' }],
    [
      'dashboard/workflows_recent (service filter)',
      { ...wf, service: 'payments', failed_only: false, limit: 50 },
    ],
  ]);
  await benchPanels('retries panel queries', [
    ['dashboard/retries_summary', filters],
    ['dashboard/retries_by_class', filters],
    ['dashboard/retries_misrouted', { ...filters, limit: 100 }],
    ['dashboard/retries_by_class (service filter)', { ...filters, service: 'payments' }],
  ]);
  await benchPanels('request panel query', [
    ['dashboard/request_spans (correlation id)', { id: correlationId }],
    ['dashboard/request_spans (trace id)', { id: traceId }],
  ]);
  // The workflow panels above that take `sampled` read no weight: the seed holds no sampled span,
  // so sampled_minutes (535) is empty and workflows_sampled says so. Where a range holds one, they
  // read every weight; marked so, they show its cost. (workflows_by_steps and workflows_summary
  // always weigh, so their rows above are their cost here too.)
  await store.client.command({
    query: "INSERT INTO sampled_minutes SELECT 'workflows', toStartOfMinute(toDateTime({from:UInt32}))",
    query_params: { from },
  });
  const sampledWf = { ...wf, sampled: await askSampled(from) };
  const sampledBudget = {
    ...budgetRequestsRange,
    sampled: await askSampled(budgetRequestsRange.period_from),
  };
  if (!sampledWf.sampled || !sampledBudget.sampled)
    throw new Error('workflows_sampled missed the marked minute');
  await benchPanels('where the range holds sampled spans (weights read)', [
    ['dashboard/budget_requests (sampled range)', sampledBudget],
    ['dashboard/workflows_first_failure (sampled range)', sampledWf],
  ]);
  await store.client.command({ query: 'TRUNCATE TABLE sampled_minutes' });
  await benchPages([
    ['/?range=24h', 'data-testid="total-failures"'],
    ['/dependencies?range=24h', 'data-testid="service-map"'],
    ['/workflows?range=24h', 'data-testid="wf-count"'],
    ['/retries?range=24h', 'data-testid="retries-by-class"'],
    [`/request?id=${correlationId}`, 'data-testid="span-timeline"'],
  ]);
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
