// What the schema's materialized views cost at ingest, this commit's schema beside an earlier one:
// every span inserted into otel_traces fills failures, calls_1m, dependency_calls_1m, the workflow
// rollup and the rest through their views, so a change to a counting rule (the sampling weights,
// a new rollup) shows here as rows per second. Each round forks two children, one per schema, in
// turn (before then now, now then before, …), each opening a fresh embedded store with its schema and
// inserting the same synthetic spans (sql/bench/seed.sql, INSERT … SELECT FROM numbers(), so every
// view fills as in production) after a warm-up insert; medians over the rounds, side by side.
//   FAULTLINE_BENCH_BEFORE=<commit> node collector/bench/ingest-views.bench.mjs [--rounds 5] [--spans 400000]
// Without FAULTLINE_BENCH_BEFORE it prints this schema's figures alone; FAULTLINE_BENCH_BEFORE=$(git rev-parse HEAD)
// runs this schema against itself, the noise floor to read a comparison by. Prints; asserts nothing.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const TARGET = 1.1;

if (process.argv[2] === '--child') await child();
else await main();

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '5' }, spans: { type: 'string', default: '400000' } },
  });
  const rounds = Number(values.rounds);
  const spans = Number(values.spans);
  if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(spans) || spans < 10_000) {
    console.error('--rounds must be a whole number ≥ 1 and --spans a whole number ≥ 10000');
    process.exit(2);
  }
  const before = process.env.FAULTLINE_BENCH_BEFORE ?? '';
  if (before !== '' && !/^[0-9a-f]{7,40}$/.test(before)) {
    console.error(`FAULTLINE_BENCH_BEFORE=${before} must be a commit hash (7 to 40 hex digits)`);
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'faultline-bench-views-'));
  try {
    const arms = [{ name: 'now', sqlDir: join(root, 'sql') }];
    if (before !== '') arms.unshift({ name: `before ${before.slice(0, 7)}`, sqlDir: sqlAt(before, work) });
    console.log(
      `ingest through the schema's views: ${spans.toLocaleString('en-US')} spans per insert, ${rounds} rounds, arms in turn`,
    );
    const rates = arms.map(() => []);
    // The order alternates (before, now, then now, before): the arm that runs second inherits what
    // the first left behind (its data files still being written back, a warmer page cache), and a
    // fixed order put that on the same arm every round.
    for (let r = 0; r < rounds; r++)
      for (const i of r % 2 === 0 ? arms.keys() : [...arms.keys()].reverse()) {
        const arm = arms[i];
        const rate = await runChild(arm.sqlDir, spans, join(work, `data-${r}-${i}`));
        rates[i].push(rate);
        console.log(
          `  round ${r + 1} ${arm.name.padEnd(16)} ${Math.round(rate).toLocaleString('en-US')} rows/s`,
        );
      }
    const medians = rates.map(median);
    arms.forEach((arm, i) => {
      console.log(`${arm.name.padEnd(24)} median ${Math.round(medians[i]).toLocaleString('en-US')} rows/s`);
    });
    if (arms.length === 2) {
      const ratio = medians[1] / medians[0];
      // Each round's two arms ran minutes apart at most: the median of the rounds' own ratios is
      // steadier than the ratio of the medians when the machine's speed drifts between rounds.
      const roundRatio = median(rates[1].map((rate, r) => rate / rates[0][r]));
      const met = roundRatio >= 1 / TARGET ? 'within 10%' : 'NOT within 10%';
      console.log(`now / before: ${ratio.toFixed(3)}x rows/s (ratio of the medians)`);
      console.log(`now / before: ${roundRatio.toFixed(3)}x rows/s (median of the rounds' ratios: ${met})`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The sql/ folder as it was at a commit (schema and queries), extracted under `work`. */
function sqlAt(commit, work) {
  const dir = join(work, `sql-${commit}`);
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'sql'], {
    cwd: root,
    maxBuffer: 1 << 28,
  });
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('tar', ['-x', '-C', dir, '--strip-components=1'], { input: archive });
  return dir;
}

function runChild(sqlDir, spans, dataDir) {
  return new Promise((ok, fail) => {
    const c = fork(new URL(import.meta.url), ['--child', String(spans), dataDir], {
      env: { ...process.env, FAULTLINE_SQL_DIR: sqlDir, FAULTLINE_DATA_DIR: dataDir },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    c.on('message', (m) => ok(m.rate));
    c.on('exit', (code) => (code === 0 ? undefined : fail(new Error(`child exited ${code}`))));
  });
}

async function child() {
  const spans = Number(process.argv[3]);
  const dataDir = process.argv[4];
  const { openStore } = await import('@faultline/sql');
  const store = await openStore({ dataDir });
  const seed = readFileSync(join(root, 'sql/bench/seed.sql'), 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  const insert = (n, endS) =>
    store.client.command({ query: seed, query_params: { spans: n, window_s: 3600, end: endS } });
  const endS = Math.floor(Date.now() / 1000);
  await insert(20_000, endS - 7200); // warm-up: the views' first inserts, caches
  const t = performance.now();
  await insert(spans, endS);
  const rate = spans / ((performance.now() - t) / 1000);
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.send({ rate }, () => process.exit(0));
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
