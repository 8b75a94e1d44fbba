import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  type CollectorProcess,
  replayAndCount,
  runUntilExit,
  startCollectorProcess,
  stopProcess,
} from './helpers/collector-process.js';
import { sendRequests } from './helpers/span-load.js';

// One data directory, one process: a second collector on it (or on its write-ahead log) is
// refused with the holder's pid and the way out. Once the holder is kill -9'd with acknowledged
// spans still only in its log, the next collector takes the stale locks over and inserts every
// one of those spans, once.
const base = mkdtempSync(join(tmpdir(), 'fl-h9-takeover-'));
const dataDir = join(base, 'data');
const running: CollectorProcess[] = [];
const HELD = join(import.meta.dirname, 'held-collector-child.ts');
const noServer = { FAULTLINE_CLICKHOUSE_URL: undefined, FAULTLINE_SPOOL_DIR: undefined };

afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

async function healthz(
  url: string,
): Promise<{ writer: { pendingInsert: number }; ingest: Record<string, unknown> }> {
  return (await fetch(`${url}/healthz`)).json() as never;
}

it('refuses a second process naming the holder; after kill -9 the next one replays the log exactly once', {
  timeout: 180_000,
}, async () => {
  const holder = await startCollectorProcess({
    script: HELD,
    env: { ...noServer, FAULTLINE_DATA_DIR: dataDir },
  });
  running.push(holder);
  const acked = await sendRequests(holder.url, 'takeover', 40);
  expect(acked).toBe(2_000);
  const before = await healthz(holder.url);
  // Acknowledged from the fsync'd log; none inserted, since this ClickHouse takes no insert.
  expect(before.ingest).toMatchObject({ accepted: 2_000, stored: 0, pending: 2_000 });

  const sameData = await runUntilExit({ env: { ...noServer, FAULTLINE_DATA_DIR: dataDir } });
  expect(sameData.code).toBe(1);
  expect(sameData.output).toContain(
    `could not start: the data directory ${dataDir} is in use by another process: pid ${holder.pid} on host `,
  );
  expect(sameData.output).toContain('held-collector-child.ts');
  expect(sameData.output).toMatch(
    new RegExp(
      `Stop that process \\(kill ${holder.pid}\\), or point FAULTLINE_DATA_DIR \\(--data-dir\\) at another directory`,
    ),
  );

  // Its own data directory but the holder's log: refused by the log's lock, naming the same pid.
  const sameLog = await runUntilExit({
    env: { ...noServer, FAULTLINE_DATA_DIR: join(base, 'other'), FAULTLINE_SPOOL_DIR: join(dataDir, 'wal') },
  });
  expect(sameLog.code).toBe(1);
  expect(sameLog.output).toContain(
    `the write-ahead log ${join(dataDir, 'wal')} is in use by another process: pid ${holder.pid} on host `,
  );
  expect(sameLog.output).toContain('unset FAULTLINE_SPOOL_DIR');

  expect((await stopProcess(holder, 'SIGKILL')).signal).toBe('SIGKILL');

  const next = await startCollectorProcess({ env: { ...noServer, FAULTLINE_DATA_DIR: dataDir } });
  running.push(next);
  expect(next.output()).toContain(`was locked by pid ${holder.pid}`);
  let after = await healthz(next.url);
  for (let i = 0; i < 200 && (after.writer.pendingInsert > 0 || after.ingest.stored !== 2_000); i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = await healthz(next.url);
  }
  expect(after.ingest).toMatchObject({ accepted: 0, stored: 2_000, pending: 0 });
  expect((await stopProcess(next, 'SIGTERM')).code, next.output()).toBe(0);

  const count = await replayAndCount(dataDir, join(dataDir, 'wal'), 'takeover');
  console.log(`acknowledged by the killed holder: ${acked}; rows after takeover: ${JSON.stringify(count)}`);
  expect(count).toEqual({ rows: 2_000, distinct: 2_000, left: 0 });
});
