import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export type PreloadMode = 'import' | 'require' | 'none';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const INSTRUMENTATION_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface FixtureOptions {
  fixture: string;
  mode: PreloadMode;
  env?: Record<string, string>;
}

/** Node flags that load the preload the way a user would: by the package's public specifier. */
function preloadArgs(mode: PreloadMode): string[] {
  if (mode === 'import') return ['--import', '@faultline/instrumentation/register'];
  if (mode === 'require') return ['--require', '@faultline/instrumentation/register'];
  return [];
}

function spawnFixture({ fixture, mode, env }: FixtureOptions): ChildProcess {
  return spawn(process.execPath, [...preloadArgs(mode), `${FIXTURES}${fixture}`], {
    // The package specifier resolves from here through the workspace link in node_modules.
    cwd: INSTRUMENTATION_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface FixtureResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a script fixture to completion. */
export async function runFixture(options: FixtureOptions): Promise<FixtureResult> {
  const child = spawnFixture(options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

/** A long-running service fixture: it prints `{"port":N}` once listening. */
export interface RunningService {
  url: string;
  /** SIGTERM, then the exit result (the preload flushes on the way out). */
  stop(): Promise<FixtureResult>;
}

export async function startService(options: FixtureOptions): Promise<RunningService> {
  const child = spawnFixture(options);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
      const match = /\{"port":(\d+)\}/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`fixture exited early (${code}): ${stderr}`)));
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      return { code, signal, stdout, stderr };
    },
  };
}

/** A fixture under one preload flag; the matrix of both flags over both module flavours. */
export interface FixtureRun<F extends string = string> {
  mode: Exclude<PreloadMode, 'none'>;
  fixture: F;
}

/** `--import` and `--require`, each with the ESM and the CommonJS flavour of a fixture. */
export function bothWaysRuns<F extends string>(esm: F, cjs: F): FixtureRun<F>[] {
  return [
    { mode: 'import', fixture: esm },
    { mode: 'require', fixture: esm },
    { mode: 'import', fixture: cjs },
    { mode: 'require', fixture: cjs },
  ];
}

/**
 * The same fixture without the preload and under it (exporting to `endpoint`), side by side, so a
 * test can assert the application's own output and exit code are unchanged.
 */
export function runBareAndPreloaded(
  run: FixtureRun,
  env: Record<string, string>,
  endpoint: string,
): Promise<[FixtureResult, FixtureResult]> {
  return Promise.all([
    runFixture({ fixture: run.fixture, mode: 'none', env }),
    runFixture({
      fixture: run.fixture,
      mode: run.mode,
      env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
    }),
  ]);
}
