import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The repository's `sql/` folder. SQL lives there and nowhere else, so the store reads it at run
 * time: `FAULTLINE_SQL_DIR` if set, else the nearest ancestor of this module holding
 * `sql/schema` (that covers `src/store/` under vitest and the bundled `dist/index.js`).
 */
export function resolveSqlDir(): string {
  const fromEnv = process.env.FAULTLINE_SQL_DIR;
  if (fromEnv) {
    const dir = resolve(fromEnv);
    if (!existsSync(join(dir, 'schema'))) {
      throw new Error(
        `FAULTLINE_SQL_DIR=${fromEnv} has no schema/ folder; point it at the repository's sql/ folder`,
      );
    }
    return dir;
  }
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'sql');
    if (existsSync(join(candidate, 'schema'))) {
      cached = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    `Cannot find the sql/ folder above ${fileURLToPath(import.meta.url)}; set FAULTLINE_SQL_DIR to the repository's sql/ folder`,
  );
}
