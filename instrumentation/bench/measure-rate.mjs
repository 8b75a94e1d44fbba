// The measuring loop both classifier benches share: a warm-up, then calls for a fixed wall-time
// budget, reported per wall second and per second of this process's CPU time (the one-core
// figure, robust to other load on the machine). `call` returns a number folded into a sink so the
// work cannot be optimised away.
export function measureRate(label, set, call, ms = 1500) {
  let sink = 0;
  for (let i = 0; i < 50_000; i++) sink += call(set[i % set.length]); // warm-up
  let calls = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const budget = BigInt(ms) * 1_000_000n;
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 10_000; i++) sink += call(set[(calls + i) % set.length]);
    calls += 10_000;
    elapsed = process.hrtime.bigint() - start;
  }
  const cpu = process.cpuUsage(cpuStart);
  const perSec = Math.round(calls / (Number(elapsed) / 1e9));
  const perCpuSec = Math.round(calls / ((cpu.user + cpu.system) / 1e6));
  console.log(
    `${label} ${perSec.toLocaleString('en-US').padStart(11)} calls/s wall, ${perCpuSec.toLocaleString('en-US').padStart(11)} calls/s CPU  (${set.length} shapes, sink ${sink > 0})`,
  );
  return { perSec, perCpuSec };
}
