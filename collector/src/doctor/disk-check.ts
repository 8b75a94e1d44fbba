import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DoctorCheck, MIN_FREE_BYTES, MIN_FREE_SHARE } from './doctor-check.js';

const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;

/** Free space where a directory lives (its nearest existing ancestor when it is not made yet). */
export function diskCheck(name: string, dir: string): DoctorCheck {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  const s = statfsSync(at);
  const free = s.bavail * s.bsize;
  const share = free / (s.blocks * s.bsize);
  const seen = `${gib(free)} free (${(share * 100).toFixed(0)}%) at ${dir}`;
  if (free < MIN_FREE_BYTES || share < MIN_FREE_SHARE)
    return {
      name,
      verdict: 'fail',
      detail: `${seen}: below ${gib(MIN_FREE_BYTES)} or ${MIN_FREE_SHARE * 100}%; free space or move it (ClickHouse stops merging and the write-ahead log refuses spans when the disk fills)`,
    };
  return { name, verdict: share < 3 * MIN_FREE_SHARE ? 'warn' : 'ok', detail: seen };
}
