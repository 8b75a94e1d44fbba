// Alert evaluation at scale (issue #12): seeds 10,000,000 spans over the last 3 days (the longest
// burn window) across 100 services into an embedded engine in a temp dir with
// sql/bench/seed_alerts.sql (INSERT … SELECT FROM numbers(), so every materialized view fills as in
// production). 5 services burn (a quarter of their calls fail, 3 of 4 of those rate_limit from
// sdk), 3 healthy ones show a failure code in the last 30 minutes they never had before, the rest
// stay healthy. Then it runs the real evaluator (createAlertEvaluator, the SRE-workbook burn rules
// plus a class_rate and a new_code rule, the 60 s default interval, no receivers) at the seed's end:
// one warm-up evaluation whose fired alerts must be exactly the planted ones (exit 1 otherwise),
// then ROUNDS timed evaluations (median, p95, ratio to the interval), then each named query that
// evaluate() runs, with the parameters it passes, p50/p95 over QUERY_ROUNDS.
//   npm run bench -- alerts        (needs `npm run build -w @faultline/collector` first)
//   FAULTLINE_BENCH_SPANS=1000000 npm run bench -- alerts   (a quicker, smaller run)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const SPANS = Number(process.env.FAULTLINE_BENCH_SPANS ?? 10_000_000);
const SERVICES = 100;
const BURNING = 5;
const NEW_CODE_SERVICES = 3;
const WINDOW_S = 3 * 86_400;
const INTERVAL_S = 60;
const ROUNDS = 7;
const QUERY_ROUNDS = 20;
// Below a million spans a 5-minute window no longer holds enough calls per service for the planted
// findings to hold in every window (and the healthy services' one code looks new).
if (!Number.isInteger(SPANS) || SPANS < 1_000_000) {
  console.error(`FAULTLINE_BENCH_SPANS=${process.env.FAULTLINE_BENCH_SPANS} must be an integer ≥ 1000000`);
  process.exit(2);
}
if (!existsSync(join(root, 'collector/dist/index.js'))) {
  console.error('collector/dist is missing: run `npm run build -w @faultline/collector` first.');
  process.exit(2);
}

const tmp = mkdtempSync(join(tmpdir(), 'faultline-bench-alerts-'));
const dataDir = join(tmp, 'data');
process.env.FAULTLINE_DATA_DIR = dataDir;
const { alertKey, burnWindowParams, classAlertKey, createAlertEvaluator, resolveAlertConfig } = await import(
  '@faultline/collector'
);
const { openStore } = await import('@faultline/sql');
const store = await openStore({ dataDir });
const n = (v) => Number(v).toLocaleString('en-US');
const fmt = (ms) => ms.toFixed(1).padStart(8);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One untimed warm-up call, then `rounds` timed: p50 and p95 in ms. */
async function timeIt(fn, rounds) {
  await fn();
  const ms = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

const svc = (i) => `svc-${String(i).padStart(3, '0')}`;

/** The alerts the seed plants: what the first evaluation must fire, no more, no less. */
function plantedKeys() {
  const keys = [];
  for (let i = 0; i < BURNING; i++) {
    keys.push(alertKey('ErrorBudgetBurn', svc(i), 'page'), alertKey('ErrorBudgetBurn', svc(i), 'ticket'));
    keys.push(classAlertKey('FailureClassRate', svc(i), 'page', { class: 'rate_limit', source: 'sdk' }));
  }
  for (let i = SERVICES - NEW_CODE_SERVICES; i < SERVICES; i++)
    keys.push(
      classAlertKey('NewFailureCode', svc(i), 'ticket', { class: 'permanent', source: 'db', code: '42P01' }),
    );
  return keys.sort();
}

async function seed(endS) {
  const seedSql = readFileSync(join(root, 'sql/bench/seed_alerts.sql'), 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  const t = performance.now();
  await store.client.command({
    query: seedSql,
    query_params: {
      spans: SPANS,
      window_s: WINDOW_S,
      end: endS,
      services: SERVICES,
      burning: BURNING,
      new_code_services: NEW_CODE_SERVICES,
    },
  });
  const seedS = (performance.now() - t) / 1000;
  const { rows } = await store.runReadOnly(
    `SELECT (SELECT count() FROM otel_traces) AS spans, (SELECT uniqExact(ServiceName) FROM otel_traces) AS services,
      (SELECT count() FROM failures) AS failures, (SELECT count() FROM calls_1m) AS calls_rows,
      (SELECT count() FROM failure_codes_1m) AS codes_rows`,
  );
  const c = rows[0];
  console.log(
    `seeded ${n(c.spans)} spans of ${n(c.services)} services over 3 d (${n(c.failures)} failures; ` +
      `calls_1m ${n(c.calls_rows)} rows, failure_codes_1m ${n(c.codes_rows)} rows) in ${seedS.toFixed(1)} s`,
  );
}

const exitCode = await (async () => {
  try {
    const { rows: v } = await store.runReadOnly('SELECT version() AS v');
    console.log(
      `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, chDB engine ${v[0].v}`,
    );
    const endS = Math.floor(Date.now() / 1000) - 1;
    await seed(endS);
    // The newest span is at endS: evaluate one second later so every window ending now holds it.
    const nowMs = (endS + 1) * 1000;
    const toS = endS + 1;

    // Rate_limit failures per minute of a burning service, as seeded; the rule fires above a quarter.
    const burningPerMinute = (SPANS / SERVICES / (WINDOW_S / 60)) * (1 / 5) * (3 / 4);
    const perMinute = Number((burningPerMinute / 4).toFixed(3));
    const rulesFile = join(tmp, 'rules.yaml');
    writeFileSync(
      rulesFile,
      `rules:\n  - { kind: class_rate, class: rate_limit, source: sdk, per_minute: ${perMinute}, window_minutes: 5 }\n  - { kind: new_code, severity: ticket, baseline_days: 7, window_minutes: 60 }\n`,
    );
    const config = resolveAlertConfig({
      ...process.env,
      FAULTLINE_ALERT_INTERVAL_S: String(INTERVAL_S),
      FAULTLINE_ALERT_RULES: rulesFile,
      FAULTLINE_ALERTMANAGER_URL: '',
      FAULTLINE_ALERT_WEBHOOK_URL: '',
      FAULTLINE_ALERT_WEBHOOK_FORMAT: '',
      FAULTLINE_SLO_TARGET: '99.5',
      FAULTLINE_BUDGET_CALLER_FAULTS: 'exclude',
    });
    const evaluator = createAlertEvaluator({ store, config, now: () => nowMs });
    console.log(
      `rules: ${config.burnRules.map((r) => `burn ${r.long}/${r.short} ≥ ${r.factor}× (${r.severity})`).join(', ')}, ` +
        `class_rate rate_limit/sdk > ${perMinute}/min over 5m (page), new_code 60m vs 7 d (ticket); SLO ${config.slo}%`,
    );

    // The first evaluation fires; it must fire exactly what the seed planted.
    const t0 = performance.now();
    const first = await evaluator.evaluate();
    const firstMs = performance.now() - t0;
    const planted = plantedKeys();
    const fired = first.map((a) => a.key).sort();
    const missing = planted.filter((k) => !fired.includes(k));
    const extra = fired.filter((k) => !planted.includes(k));
    const firedBy = {};
    for (const a of first)
      firedBy[`${a.alertname} ${a.severity}`] = (firedBy[`${a.alertname} ${a.severity}`] ?? 0) + 1;
    console.log(
      `\nfirst evaluation (fires): ${fired.length} alerts fired in ${firstMs.toFixed(1)} ms, planted ${planted.length}: ` +
        Object.entries(firedBy)
          .map(([k, c]) => `${c} ${k}`)
          .join(', '),
    );
    const burn = first.find((a) => a.alertname === 'ErrorBudgetBurn');
    if (burn) console.log(`  e.g. ${burn.summary}`);
    const wrongClass = first.filter((a) => a.alertname === 'ErrorBudgetBurn' && a.class !== 'rate_limit');
    if (missing.length || extra.length || wrongClass.length) {
      console.error(
        `alerts fired ≠ planted: missing ${missing.join(', ') || 'none'}; unexpected ${extra.join(', ') || 'none'}`,
      );
      if (wrongClass.length)
        console.error(
          `burn alerts not dominated by rate_limit: ${wrongClass.map((a) => `${a.key} ${a.class}`).join(', ')}`,
        );
      return 1;
    }

    // Steady state: every later evaluation re-sends the same alerts (nothing fires, nothing resolves).
    let steady = true;
    const timing = await timeIt(async () => {
      const again = await evaluator.evaluate();
      const keys = again.map((a) => a.key).sort();
      if (keys.join('\n') !== planted.join('\n') || again.some((a) => a.status !== 'firing')) steady = false;
    }, ROUNDS);
    await evaluator.idle();
    if (!steady) {
      console.error('a later evaluation did not re-send exactly the planted alerts');
      return 1;
    }
    console.log(
      `evaluate() over ${n(SPANS)} spans, ${SERVICES} services, ${ROUNDS} rounds after a warm-up: ` +
        `median ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms ` +
        `= ${((timing.p95 / (INTERVAL_S * 1000)) * 100).toFixed(2)}% of the ${INTERVAL_S} s interval ` +
        `(median ${((timing.p50 / (INTERVAL_S * 1000)) * 100).toFixed(2)}%)`,
    );

    // Each query evaluate() runs, with the parameters it passes (alert-evaluator.ts, class-rules.ts).
    const budget = {
      from: toS - WINDOW_S,
      to: toS,
      period_from: toS - WINDOW_S,
      service: '',
      source: '',
      ...burnWindowParams(),
    };
    const minuteS = Math.floor(nowMs / 60_000) * 60;
    const queries = [
      ['alerts/alert_states', '', 'once, at the first evaluation', undefined, 0],
      ['dashboard/budget_calls', '3d', 'beside budget_failures', budget, 1],
      ['dashboard/budget_failures', '3d', 'beside budget_calls', { ...budget, class: '', dependency: '' }, 1],
      [
        'alerts/alert_breakdown',
        '1h',
        'one per page burn alert',
        { service: svc(0), from: toS - 3600, to: toS },
        BURNING,
      ],
      [
        'alerts/alert_breakdown',
        '3d',
        'one per ticket burn alert',
        { service: svc(0), from: toS - WINDOW_S, to: toS },
        BURNING,
      ],
      [
        'alerts/alert_class_rate',
        '5m',
        'per class_rate rule',
        { from: minuteS - 300, to: minuteS, class: 'rate_limit', source: 'sdk', service: '' },
        1,
      ],
      [
        'alerts/alert_new_codes',
        '7d+1h',
        'per new_code rule',
        { baseline_from: minuteS - 3600 - 7 * 86_400, from: minuteS - 3600, to: toS, service: '' },
        1,
      ],
    ];
    console.log(
      `\nalert queries, ${QUERY_ROUNDS} rounds each after a warm-up (ms)`.padEnd(60) +
        '     p50      p95  runs/eval',
    );
    const measured = [];
    for (const [name, window, when, params, perEval] of queries) {
      const t = await timeIt(() => store.runNamed(name, params), QUERY_ROUNDS);
      measured.push({ name, ms: t.p50, perEval });
      console.log(
        `${`${name} ${window}`.padEnd(59)}${fmt(t.p50)} ${fmt(t.p95)}  ${String(perEval).padStart(3)}  ${when}`,
      );
    }
    // budget_calls and budget_failures run side by side; everything after them runs one by one.
    const parallel = Math.max(measured[1].ms, measured[2].ms);
    const byName = new Map();
    for (const q of measured.slice(1)) byName.set(q.name, (byName.get(q.name) ?? 0) + q.ms * q.perEval);
    const sequential = measured.slice(3).reduce((s, q) => s + q.ms * q.perEval, 0);
    const sum = parallel + sequential;
    console.log(
      `one evaluation's queries at the p50s above (timed apart, so not the evaluate() median): max(budget_calls, budget_failures) ${parallel.toFixed(1)} ms ` +
        `+ ${2 * BURNING} breakdowns and 2 class-rule queries ${sequential.toFixed(1)} ms = ${sum.toFixed(1)} ms`,
    );
    const [topName, topMs] = [...byName].sort((a, b) => b[1] - a[1])[0];
    console.log(
      `largest share: ${topName}, ${topMs.toFixed(1)} ms per evaluation (${((topMs / sum) * 100).toFixed(0)}% of ${sum.toFixed(1)} ms)`,
    );
    return 0;
  } finally {
    await store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
})();
process.exit(exitCode);
