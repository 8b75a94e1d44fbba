import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = resolve(import.meta.dirname, '../../..');
const START = resolve(ROOT, 'scripts/start.mjs');

export interface StartedPart {
  /** The URL printed on the line that matched. */
  url: string;
  stop(): Promise<void>;
}

/** Runs `scripts/start.mjs` (what `npm start` runs) and waits for the line that names its URL. */
export async function startPart(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  /** Sees every stdout line before `ready` matches (e.g. to read a second URL). */
  onLine?: (line: string) => void,
): Promise<StartedPart> {
  if (args.includes('dashboard') && !existsSync(resolve(ROOT, 'dashboard/.next/BUILD_ID'))) {
    throw new Error('dashboard/.next is missing: run `npm run build` (or `npm ci`) before this test.');
  }
  const child = spawn(process.execPath, [START, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d: Buffer) => {
    output += String(d);
  });
  const url = await new Promise<string>((ok, ko) => {
    const timer = setTimeout(
      () => ko(new Error(`start ${args.join(' ')}: no "${ready}" in 60 s:\n${output}`)),
      60_000,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      ko(new Error(`start ${args.join(' ')} exited with ${code}:\n${output}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      onLine?.(line);
      const m = ready.exec(line);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
  });
  return { url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Runs `scripts/start.mjs` to completion (for flags that must be refused before anything starts). */
export function runStart(
  args: string[],
  env: NodeJS.ProcessEnv,
): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [START, ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

/** Runs the operator's CLI (`npx faultline …`, bin/faultline.mjs) to completion. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'bin/faultline.mjs'), ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}
