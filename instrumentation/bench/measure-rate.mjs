// The measuring loop both classifier benches share: a warm-up, then rounds of calls for a fixed
// wall-time budget each, reported per wall second and per second of this process's CPU time (the
// one-core figure, robust to other load on the machine) as the median over the rounds, which a
// neighbour's burst during one round cannot move. `call` returns a number folded into a sink so
// the work cannot be optimised away.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

export function measureRate(label, set, call, ms = 1000) {
  let sink = 0;
  for (let i = 0; i < 50_000; i++) sink += call(set[i % set.length]); // warm-up
  const walls = [];
  const cpus = [];
  let calls = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let roundCalls = 0;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    const budget = BigInt(ms) * 1_000_000n;
    let elapsed = 0n;
    while (elapsed < budget) {
      for (let i = 0; i < 10_000; i++) sink += call(set[(calls + i) % set.length]);
      calls += 10_000;
      roundCalls += 10_000;
      elapsed = process.hrtime.bigint() - start;
    }
    const cpu = process.cpuUsage(cpuStart);
    walls.push(roundCalls / (Number(elapsed) / 1e9));
    cpus.push(roundCalls / ((cpu.user + cpu.system) / 1e6));
  }
  const perSec = Math.round(median(walls));
  const perCpuSec = Math.round(median(cpus));
  console.log(
    `${label} ${perSec.toLocaleString('en-US').padStart(11)} calls/s wall, ${perCpuSec.toLocaleString('en-US').padStart(11)} calls/s CPU  (${set.length} shapes, sink ${sink > 0}; median of ${ROUNDS} rounds, CPU ${cpus
      .map((c) => `${Math.round(c / 1000)}k`)
      .join(' ')})`,
  );
  return { perSec, perCpuSec };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
