import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '../../..');

export interface FaultlineProcess {
  dashboardUrl: string;
  otlpUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra `scripts/start.mjs` arguments, e.g. `['--host', '0.0.0.0']`. */
  args?: string[];
  /** Extra environment, e.g. the dashboard's auth settings. */
  env?: Record<string, string>;
}

/** `npm start` equivalent in a child: free ports, a fresh embedded data directory. */
export async function startFaultline(options: StartOptions = {}): Promise<FaultlineProcess> {
  if (!existsSync(join(ROOT, 'dashboard/.next/BUILD_ID'))) {
    throw new Error('dashboard/.next is missing: run `npm run build` before the dashboard tests.');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'faultline-e2e-'));
  const args = ['scripts/start.mjs', '--port', '0', '--otlp-port', '0', ...(options.args ?? [])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, FAULTLINE_DATA_DIR: dataDir, FAULTLINE_CLICKHOUSE_URL: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const urls = await new Promise<{ dashboard: string; otlp: string }>((ok, ko) => {
    const found: { dashboard?: string; otlp?: string } = {};
    const timer = setTimeout(() => ko(new Error(`npm start did not come up in 60 s:\n${stderr}`)), 60_000);
    child.once('exit', (code) => ko(new Error(`npm start exited with ${code}:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const otlp = /^faultline: otlp (\S+)\/v1\/traces$/.exec(line);
      const dash = /^faultline: dashboard (\S+)$/.exec(line);
      if (otlp) found.otlp = otlp[1];
      if (dash) found.dashboard = dash[1];
      if (found.otlp && found.dashboard) {
        clearTimeout(timer);
        ok({ dashboard: found.dashboard, otlp: found.otlp });
      }
    });
  });
  return {
    dashboardUrl: urls.dashboard,
    otlpUrl: urls.otlp,
    dataDir,
    stop: () => stopChild(child).finally(() => rmSync(dataDir, { recursive: true, force: true })),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

export interface DemoRun {
  /** e.g. demo-abc123 — correlation ids are `${prefix}-1…${sent}`. */
  prefix: string;
  sent: number;
  /** Everything the demo printed (its expected totals among it). */
  output: string;
}

/** `npm run demo` against the child's collector, for a fixed duration. */
export function runDemo(otlpUrl: string, durationS: number, rate: number): Promise<DemoRun> {
  return new Promise((ok, ko) => {
    const child = spawn(
      process.execPath,
      [
        'scripts/demo.mjs',
        '--duration',
        String(durationS),
        '--rate',
        String(rate),
        '--otlp',
        otlpUrl,
        '--quiet',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '300' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout?.on('data', (d) => {
      out += String(d);
    });
    child.stderr?.on('data', (d) => {
      out += String(d);
    });
    child.once('exit', (code) => {
      const m = /demo: sent (\d+) workflows \(correlation ids (demo-[a-z0-9]+)-1/.exec(out);
      if (code !== 0 || !m) ko(new Error(`demo failed (exit ${code}):\n${out}`));
      else ok({ sent: Number(m[1]), prefix: m[2]!, output: out });
    });
  });
}

/**
 * Whole minutes around a run that started at `startS` and has just ended (the rollups count by
 * minute), with a minute's margin either side.
 */
export function minutesAround(startS: number): { fromS: number; toS: number } {
  return { fromS: Math.floor(startS / 60) * 60 - 60, toS: Math.ceil((Date.now() / 1000 + 60) / 60) * 60 };
}
