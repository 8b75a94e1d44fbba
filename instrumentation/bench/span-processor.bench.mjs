// The span processor's own cost, in process, against the same SDK without it: where the preload's
// remaining cost per request is once the network, the instrumentations and the export are taken
// out (the preload bench measures the whole service). A request is a server span and one client
// call with the attributes instrumentation-http gives them; a failing call answers 503 and its
// request 502, as in the preload bench's fail20. Interleaved rounds, medians, CPU time.
// Runs the TypeScript source through tsx: the processor is internal to the package.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./lib/span-processor-cost.ts', import.meta.url))],
  { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) },
);
process.exit(run.status ?? 1);
