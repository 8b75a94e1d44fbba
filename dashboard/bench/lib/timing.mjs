// Timing helpers shared by the dashboard benchmarks: warm up, then RUNS timed calls, p50/p95.
export const RUNS = 30;
/**
 * Turn-about comparisons time twice as many: their verdict is a ratio of p95s, and the p95 of 30
 * runs is the second-slowest one, which a single stall on this shared machine decides; of 60 it is
 * the fourth-slowest.
 */
export const PAIR_RUNS = 60;

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

/**
 * Two ways of doing the same thing timed turn about (A, B, A, B …) after the same warm-up, so a
 * noisy machine weighs on both alike: the before/after of a change measured side by side.
 */
export async function timePair(a, b) {
  for (let i = 0; i < 3; i++) {
    await a();
    await b();
  }
  const ms = [[], []];
  for (let i = 0; i < PAIR_RUNS; i++)
    for (const [k, fn] of [a, b].entries()) {
      const t = performance.now();
      await fn();
      ms[k].push(performance.now() - t);
    }
  return ms.map((m) => {
    m.sort((x, y) => x - y);
    return { p50: percentile(m, 50), p95: percentile(m, 95) };
  });
}

export const fmt = (n) => n.toFixed(1).padStart(7);

/** One printed line per measurement; targets are the issue's: 300 ms per panel, 1 s per page. */
export function report(label, { p50, p95 }, targetMs) {
  const over = p95 > targetMs ? `  over the ${targetMs} ms target` : '';
  console.log(`${label.padEnd(52)}${fmt(p50)} ${fmt(p95)}${over}`);
}
