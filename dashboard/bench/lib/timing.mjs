// Timing helpers shared by the dashboard benchmarks: warm up, then RUNS timed calls, p50/p95.
export const RUNS = 30;
/**
 * Turn-about comparisons run PAIR_ROUNDS rounds of RUNS runs each and judge by the median over the
 * rounds of each round's ratio: the p95 of one round of 30 is its second-slowest run, which one
 * stall on this shared machine decides (a query compared with itself read 1.16x at p95 so).
 */
export const PAIR_ROUNDS = 5;
/**
 * A short panel gets more rounds, up to MAX_PAIR_ROUNDS, so that each comparison spends about the
 * time five rounds of a 50 ms panel do: one stall weighs more on a 10 ms panel's round, and its
 * median ratio swung by 10% from run to run on five rounds (budget_calls, whose query differs from
 * 6a861fe's by one max(), read 1.03x to 1.13x at p95).
 */
export const MAX_PAIR_ROUNDS = 15;
const PAIR_BUDGET_MS = PAIR_ROUNDS * RUNS * 2 * 50;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Three untimed warm-up calls (caches, JIT, first-load of the named query file), then RUNS timed. */
export async function timeIt(fn) {
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

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * Two ways of doing the same thing timed turn about after the same warm-up, so a noisy machine
 * weighs on both alike: the before/after of a change measured side by side. The order alternates
 * (A, B, then B, A): which query ran just before moves the engine's caches, and two queries over
 * workflows_rollup FINAL timed in a fixed order read the second slower one way round and faster
 * the other. Each side's p50/p95 over every run, and the ratios B/A at p50 and p95 as the
 * median over the rounds of each round's ratio; `rounds`, how many (PAIR_ROUNDS to MAX_PAIR_ROUNDS,
 * by the pair's warm-up time).
 */
export async function timePair(a, b) {
  const warm = performance.now();
  for (let i = 0; i < 3; i++) {
    await a();
    await b();
  }
  const pairMs = (performance.now() - warm) / 3;
  // An odd count, so the median is one round's ratio.
  const fit = Math.floor(PAIR_BUDGET_MS / (RUNS * Math.max(pairMs, 1)));
  const rounds = Math.min(MAX_PAIR_ROUNDS, Math.max(PAIR_ROUNDS, fit - (fit % 2 === 0 ? 1 : 0)));
  const all = [[], []];
  const ratios = { p50: [], p95: [] };
  for (let round = 0; round < rounds; round++) {
    const ms = [[], []];
    for (let i = 0; i < RUNS; i++)
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const t = performance.now();
        await [a, b][k]();
        ms[k].push(performance.now() - t);
      }
    const [ra, rb] = ms.map((m) => [...m].sort((x, y) => x - y));
    ratios.p50.push(percentile(rb, 50) / percentile(ra, 50));
    ratios.p95.push(percentile(rb, 95) / percentile(ra, 95));
    all[0].push(...ms[0]);
    all[1].push(...ms[1]);
  }
  const [sa, sb] = all.map((m) => m.sort((x, y) => x - y));
  return {
    a: { p50: percentile(sa, 50), p95: percentile(sa, 95) },
    b: { p50: percentile(sb, 50), p95: percentile(sb, 95) },
    ratio: { p50: median(ratios.p50), p95: median(ratios.p95) },
    rounds,
  };
}

export const fmt = (n) => n.toFixed(1).padStart(7);

/** One printed line per measurement; targets are the issue's: 300 ms per panel, 1 s per page. */
export function report(label, { p50, p95 }, targetMs) {
  const over = p95 > targetMs ? `  over the ${targetMs} ms target` : '';
  console.log(`${label.padEnd(52)}${fmt(p50)} ${fmt(p95)}${over}`);
}
