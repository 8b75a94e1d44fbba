import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  type CollectorProcess,
  replayAndCount,
  startCollectorProcess,
  stopProcess,
} from './helpers/collector-process.js';
import { startLoad } from './helpers/span-load.js';

// Issue #9: two collectors started from one folder, each with its own FAULTLINE_DATA_DIR and no
// FAULTLINE_SPOOL_DIR. Before, both kept their write-ahead log in ./.faultline/spool and the
// second one, at start, sealed the first one's open segment as crash debris and inserted it into
// its own store. Now each log lives in its data directory: each store holds exactly the spans its
// collector acknowledged, and none of the other's.
const base = mkdtempSync(join(tmpdir(), 'fl-h9-two-'));
const folder = join(base, 'folder');
const dataA = join(base, 'data-a');
const dataB = join(base, 'data-b');
const running: CollectorProcess[] = [];

afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

function start(dataDir: string): Promise<CollectorProcess> {
  return startCollectorProcess({
    cwd: folder,
    env: { FAULTLINE_DATA_DIR: dataDir, FAULTLINE_SPOOL_DIR: undefined, FAULTLINE_CLICKHOUSE_URL: undefined },
  }).then((p) => {
    running.push(p);
    return p;
  });
}

it('each store holds exactly the spans its own collector acknowledged', { timeout: 180_000 }, async () => {
  mkdirSync(folder);
  const a = await start(dataA);
  const loadA = startLoad(a.url, 'instance-a');
  // B starts while A is under load, with open segments in A's log: the moment the old default broke.
  await new Promise((r) => setTimeout(r, 1_500));
  const b = await start(dataB);
  const loadB = startLoad(b.url, 'instance-b');
  await new Promise((r) => setTimeout(r, 2_500));
  await Promise.all([loadA.stop(), loadB.stop()]);
  const [exitA, exitB] = await Promise.all([stopProcess(a, 'SIGTERM'), stopProcess(b, 'SIGTERM')]);
  expect(exitA.code, a.output()).toBe(0);
  expect(exitB.code, b.output()).toBe(0);
  const ackedA = loadA.acked();
  const ackedB = loadB.acked();
  console.log(
    `acknowledged: A ${ackedA} spans ${JSON.stringify(loadA.statuses)}, B ${ackedB} spans ${JSON.stringify(loadB.statuses)}`,
  );
  expect(ackedA).toBeGreaterThan(1_000);
  expect(ackedB).toBeGreaterThan(1_000);

  // Each log was in its own data directory; nothing was written to the shared folder.
  expect(existsSync(join(dataA, 'wal'))).toBe(true);
  expect(existsSync(join(dataB, 'wal'))).toBe(true);
  expect(readdirSync(folder)).toEqual([]);

  // Reopened (a restart replays whatever a log still holds), each store is counted on its own.
  const counts = {
    aInA: await replayAndCount(dataA, join(dataA, 'wal'), 'instance-a'),
    bInA: await replayAndCount(dataA, join(dataA, 'wal'), 'instance-b'),
    bInB: await replayAndCount(dataB, join(dataB, 'wal'), 'instance-b'),
    aInB: await replayAndCount(dataB, join(dataB, 'wal'), 'instance-a'),
  };
  console.log(`rows: ${JSON.stringify(counts)}`);
  expect(counts).toEqual({
    aInA: { rows: ackedA, distinct: ackedA, left: 0 },
    bInA: { rows: 0, distinct: 0, left: 0 },
    bInB: { rows: ackedB, distinct: ackedB, left: 0 },
    aInB: { rows: 0, distinct: 0, left: 0 },
  });
});
