import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startUpstream, type Upstream } from './helpers/upstream.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/linger.mjs', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  /** From the job's last line to the process's exit. */
  afterFinishMs: number;
}

function runLinger(preload: string[], env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...preload, FIXTURE], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    let finishedAt = 0;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (!finishedAt && stdout.includes('finished')) finishedAt = performance.now();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, afterFinishMs: performance.now() - finishedAt }));
  });
}

describe('a job that finishes while the collector is down', () => {
  let upstream: Upstream;
  let runs: Record<'none' | 'import' | 'require', Exit>;

  beforeAll(async () => {
    upstream = await startUpstream();
    const env = { UPSTREAM_URL: upstream.url, OTEL_EXPORTER_OTLP_ENDPOINT: await closedPortUrl() };
    const [none, imported, required] = await Promise.all([
      runLinger([], env),
      runLinger(['--import', '@faultline/instrumentation/register'], env),
      runLinger(['--require', '@faultline/instrumentation/register'], env),
    ]);
    runs = { none, import: imported, require: required };
  });

  afterAll(async () => {
    await upstream?.close();
  });

  it('keeps its output and exit code', () => {
    expect(runs.none).toMatchObject({ code: 5, stdout: 'finished 503\n' });
    for (const mode of ['import', 'require'] as const) {
      expect({ code: runs[mode].code, stdout: runs[mode].stdout }).toEqual({
        code: 5,
        stdout: 'finished 503\n',
      });
    }
  });

  it('exits promptly although an export of its spans is being retried', () => {
    // Without unref'd retry timers the exporter holds the process for up to its 10 s timeout.
    for (const mode of ['import', 'require'] as const) expect(runs[mode].afterFinishMs).toBeLessThan(1200);
  });
});
