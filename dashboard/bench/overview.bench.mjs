// Overview speed at scale: seeds 10,000,000 spans (1,000,000 classified failures) over the last 24 h
// into an embedded engine in a temp dir with sql/bench/seed.sql (INSERT … SELECT FROM numbers(), so
// the failures and calls_1m materialized views fill as they do in production), then prints each
// overview panel query's p50/p95 and the overview page's server render time (Next.js, range=24h).
//   npm run bench -- overview        (needs `npm run build` first: it serves dashboard/.next)
//   FAULTLINE_BENCH_SPANS=1000000 npm run bench -- overview   (a quicker, smaller run)
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const SPANS = Number(process.env.FAULTLINE_BENCH_SPANS ?? 10_000_000);
const WINDOW_S = 24 * 3600;
const RUNS = 30;
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

const dataDir = mkdtempSync(join(tmpdir(), 'faultline-bench-overview-'));
process.env.FAULTLINE_DATA_DIR = dataDir;
const { openStore } = await import('@faultline/collector');
const store = await openStore({ dataDir });

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
async function timeIt(fn) {
  for (let i = 0; i < 3; i++) await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}
const fmt = (n) => n.toFixed(1).padStart(7);

try {
  const endS = Math.floor(Date.now() / 1000);
  const seedSql = readFileSync(join(root, 'sql/bench/seed.sql'), 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  let t = performance.now();
  await store.client.command({
    query: seedSql,
    query_params: { spans: SPANS, window_s: WINDOW_S, end: endS },
  });
  const seedS = (performance.now() - t) / 1000;
  const countRs = await store.runReadOnly(
    'SELECT (SELECT count() FROM otel_traces) AS spans, (SELECT count() FROM failures) AS failures, (SELECT sum(calls) FROM calls_1m) AS rollup_calls, (SELECT count() FROM calls_1m) AS rollup_rows',
  );
  const c = countRs.rows[0];
  console.log(
    `seeded ${Number(c.spans).toLocaleString('en-US')} spans (${Number(c.failures).toLocaleString('en-US')} failures; calls_1m ${Number(c.rollup_rows).toLocaleString('en-US')} rows) in ${seedS.toFixed(1)} s`,
  );

  // The same parameters the overview sends for ?range=24h with no filters (see dashboard/src/server).
  const fromS = Math.floor((endS + 1 - WINDOW_S) / 60) * 60;
  const toS = Math.ceil((endS + 1) / 60) * 60;
  const base = { from: fromS, to: toS, service: '', source: '' };
  const panels = [
    ['dashboard/overview_budget', base],
    ['dashboard/overview_matrix', base],
    ['dashboard/overview_timeline', { ...base, bucket: 900 }],
    ['dashboard/overview_top_codes', { ...base, limit: 15 }],
    ['dashboard/filter_options', { from: fromS, to: toS }],
    ['dashboard/overview_budget (service filter)', { ...base, service: 'payments' }],
  ];
  console.log(`\noverview panel queries, ${RUNS} runs each (ms)      p50     p95`);
  for (const [label, params] of panels) {
    const name = label.split(' ')[0];
    const { p50, p95 } = await timeIt(() => store.runNamed(name, params));
    console.log(`${label.padEnd(46)}${fmt(p50)} ${fmt(p95)}${p95 > 300 ? '  over the 300 ms target' : ''}`);
  }

  const { default: next } = await import('next');
  const app = next({ dev: false, dir: join(root, 'dashboard'), hostname: '127.0.0.1', port: 0 });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = createServer((req, res) => handle(req, res));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/?range=24h`;
  t = performance.now();
  const page = await timeIt(async () => {
    const res = await fetch(url);
    const html = await res.text();
    if (res.status !== 200 || !html.includes('data-testid="total-failures"')) {
      throw new Error(`overview render failed: HTTP ${res.status}`);
    }
  });
  console.log(
    `\noverview page server render (GET /?range=24h, full HTML)  p50 ${fmt(page.p50)} ms  p95 ${fmt(page.p95)} ms`,
  );
  server.close();
  await app.close?.();
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
