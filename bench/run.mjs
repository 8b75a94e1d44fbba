// `npm run bench`: runs every benchmark of the workspace one after another, so figures printed
// side by side in one run share the same machine state. Pass names to run a subset:
//   npm run bench -- classify ingest
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dirs = ['instrumentation/bench', 'collector/bench', 'dashboard/bench', 'bench'];
const only = process.argv.slice(2);

const files = dirs.flatMap((dir) => {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .filter((f) => f.endsWith('.bench.mjs'))
    .filter((f) => only.length === 0 || only.some((name) => f.includes(name)))
    .sort()
    .map((f) => join(abs, f));
});

if (files.length === 0) {
  console.error(`no benchmark matched ${only.join(', ') || '(all)'}; benchmarks live in */bench/*.bench.mjs`);
  process.exit(2);
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file.slice(root.length + 1)} ===`);
  const run = spawnSync(process.execPath, ['--expose-gc', file], { stdio: 'inherit', cwd: root });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
