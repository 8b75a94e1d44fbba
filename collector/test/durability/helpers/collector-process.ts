import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The CLI run from source (bin entry over src/), as the durability tests start it. */
export const CLI = join(import.meta.dirname, '..', '..', 'receiver', 'helpers', 'cli-from-source.ts');
/** tsx by absolute URL: a child started in a temp folder cannot resolve `--import tsx` from there. */
const TSX = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
).href;

export interface ProcessOptions {
  /** The script run under tsx (default: the CLI) and its arguments. */
  script?: string;
  args?: string[];
  cwd?: string;
  /** Merged over process.env; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

export interface CollectorProcess {
  child: ChildProcess;
  pid: number;
  /** Base URL of its OTLP receiver. */
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnTsx(o: ProcessOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, FAULTLINE_INGEST_TOKEN: '' };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return spawn(process.execPath, ['--import', TSX, o.script ?? CLI, '--port', '0', ...(o.args ?? [])], {
    cwd: o.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts a collector process and resolves once it listens; rejects with its output if it exits first. */
export function startCollectorProcess(o: ProcessOptions): Promise<CollectorProcess> {
  const child = spawnTsx(o);
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^/\s]+)\/v1\/traces/.exec(out);
      if (match) resolve({ child, pid: child.pid!, url: match[1]!, output: () => out, exited });
    });
    child.stderr!.on('data', (chunk) => {
      out += chunk;
    });
    void exited.then(({ code }) => reject(new Error(`collector exited early (${code}):\n${out}`)));
  });
}

/** Runs a process that is expected to stop by itself (a refused start); resolves with its exit and output. */
export function runUntilExit(o: ProcessOptions): Promise<{ code: number | null; output: string }> {
  const child = spawnTsx(o);
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
  });
  child.stderr!.on('data', (c) => {
    out += c;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    }),
  );
}

/** SIGTERM (drain) or SIGKILL, and wait for the exit. */
export async function stopProcess(p: CollectorProcess, signal: 'SIGTERM' | 'SIGKILL') {
  p.child.kill(signal);
  return p.exited;
}

/** The write-ahead crash child's `replay` mode: reopens a store and its log, replays, counts one service. */
export async function replayAndCount(
  dataDir: string,
  spoolDir: string,
  service: string,
): Promise<{ rows: number; distinct: number; left: number }> {
  const replay = join(import.meta.dirname, '..', '..', 'writer', 'wal-crash-child.ts');
  const child = spawn(
    process.execPath,
    ['--import', TSX, replay, dataDir, spoolDir, 'replay', service, '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  child.stderr.on('data', (c) => {
    out += c;
  });
  await new Promise((r) => child.once('exit', r));
  const m = /rows (\d+) distinct (\d+) left (\d+)/.exec(out);
  if (!m) throw new Error(`replay child printed no count:\n${out}`);
  return { rows: Number(m[1]), distinct: Number(m[2]), left: Number(m[3]) };
}
