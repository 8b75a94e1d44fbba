import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { afterAll, expect, it } from 'vitest';
import { startLoad } from '../durability/helpers/span-load.js';

// A real collector process (the CLI, from source) under load gets SIGTERM mid-run. Every span it
// acknowledged must be in otel_traces when the data directory is reopened; nothing more.
const dir = mkdtempSync(join(tmpdir(), 'faultline-h4b-sigterm-'));
const CLI = join(import.meta.dirname, '..', 'receiver', 'helpers', 'cli-from-source.ts');
let child: ChildProcess | undefined;
let store: Store | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function startChild(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--port', '0', '--data-dir', join(dir, 'data')],
    {
      env: { ...process.env, FAULTLINE_SPOOL_DIR: join(dir, 'spool'), FAULTLINE_INGEST_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)\/v1\/traces/.exec(out);
      if (match) resolve({ child: proc, url: match[1]!, output: () => out });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c) => {
      out += c;
    });
    proc.once('exit', (code) => reject(new Error(`collector exited early (${code}):\n${out}`)));
  });
}

it('drains in-flight batches on SIGTERM: rows == spans acknowledged', { timeout: 120_000 }, async () => {
  const started = await startChild();
  child = started.child;
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
  // Eight exporters until the collector is gone (a refused connection ends each).
  const load = startLoad(started.url, 'sigterm-load', 8);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(load.acked()).toBeGreaterThan(0);
  child.kill('SIGTERM');
  const code = await exited;
  await load.stop();
  const acked = load.acked();
  const statuses = load.statuses;
  expect(code, started.output()).toBe(0);
  expect(started.output()).toMatch(/SIGTERM, draining/);

  store = await openStore({ dataDir: join(dir, 'data') });
  const result = await store.runReadOnly<{ n: number; distinctSpans: number }>(
    'SELECT count() AS n, uniqExact(SpanId) AS distinctSpans FROM otel_traces',
  );
  const { n, distinctSpans } = result.rows[0]!;
  expect({ rows: Number(n), distinct: Number(distinctSpans), statuses }).toEqual({
    rows: acked,
    distinct: acked,
    statuses,
  });
  const logged = /stopped; (\d+) spans acknowledged/.exec(started.output());
  expect(Number(logged?.[1])).toBe(acked);
});
