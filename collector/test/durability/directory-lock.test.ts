import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDirectoryLock, DirectoryInUseError, LOCK_FILE } from '@faultline/sql';
import { afterAll, describe, expect, it, vi } from 'vitest';

const base = mkdtempSync(join(tmpdir(), 'fl-h9-lock-'));
const purpose = { what: 'the test directory', fix: 'use another one' };
const children: ChildProcess[] = [];
vi.spyOn(console, 'warn').mockImplementation(() => {});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

let n = 0;
const freshDir = () => join(base, `d${++n}`);
const lockJson = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));

function holdInChild(
  dir: string,
  mode: 'hold' | 'exit',
): Promise<{ child: ChildProcess; pid: number; out: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'hold-lock-child.ts'), dir, mode],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /locked (\d+)/.exec(out);
      if (m && mode === 'hold') resolve({ child, pid: Number(m[1]), out });
    });
    child.stderr!.on('data', (c) => {
      out += c;
    });
    child.once('exit', (code) =>
      mode === 'exit' ? resolve({ child, pid: -1, out }) : reject(new Error(`${code}: ${out}`)),
    );
  });
}

/** The pid of a process that has already exited. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve) => child.once('exit', () => resolve(child.pid!)));
}

function writeLock(dir: string, owner: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, LOCK_FILE),
    JSON.stringify({ since: '2024-01-01T00:00:00.000Z', command: 'old', token: 'x', ...owner }),
  );
}

describe('acquireDirectoryLock', () => {
  it('refuses a second holder in this process, naming it, until the first releases', () => {
    const dir = freshDir();
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir)).toMatchObject({ pid: process.pid, host: hostname(), token: lock.owner.token });
    expect(() => acquireDirectoryLock(dir, purpose)).toThrow(
      new RegExp(`the test directory ${dir} is already in use by this process \\(pid ${process.pid} on host`),
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDirectoryLock(dir, purpose).release();
  });

  it('refuses while another live process holds it (pid, host, since, command, fix); takes over once it is kill -9d', {
    timeout: 30_000,
  }, async () => {
    const dir = freshDir();
    const { child, pid } = await holdInChild(dir, 'hold');
    let refused: unknown;
    try {
      acquireDirectoryLock(dir, purpose);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DirectoryInUseError);
    const message = (refused as Error).message;
    expect(message).toContain(
      `the test directory ${dir} is in use by another process: pid ${pid} on host ${hostname()}, since 20`,
    );
    expect(message).toContain('hold-lock-child.ts');
    expect(message).toContain(`Stop that process (kill ${pid}), or use another one.`);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over the lock of a pid that no longer runs', async () => {
    const dir = freshDir();
    writeLock(dir, { pid: await deadPid(), host: hostname() });
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir).token).toBe(lock.owner.token);
    lock.release();
  });

  it('takes over a lock naming this pid that this process does not hold (a restarted container)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid, host: hostname() });
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir).token).toBe(lock.owner.token);
    lock.release();
  });

  it('takes over a live pid whose start time differs (the pid was reused)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.ppid, host: hostname(), procStart: '1' });
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir).token).toBe(lock.owner.token);
    lock.release();
  });

  it('another host: refused while its lock is fresh, taken over once it went a minute without refresh', () => {
    const dir = freshDir();
    writeLock(dir, { pid: 1, host: 'elsewhere.example' });
    expect(() => acquireDirectoryLock(dir, purpose)).toThrow(
      /in use by another process: pid 1 on host elsewhere\.example.*keeps the lock fresh/,
    );
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    const lock = acquireDirectoryLock(dir, purpose);
    expect(lockJson(dir).host).toBe(hostname());
    lock.release();
  });

  it('takes over a lock file that is not one (garbage)', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    acquireDirectoryLock(dir, purpose).release();
  });

  it("release() leaves another holder's file alone", () => {
    const dir = freshDir();
    const lock = acquireDirectoryLock(dir, purpose);
    writeLock(dir, { pid: 1, host: 'elsewhere.example', token: 'theirs' });
    lock.release();
    expect(lockJson(dir).token).toBe('theirs');
  });

  it('a process that exits without releasing leaves no lock behind', { timeout: 30_000 }, async () => {
    const dir = freshDir();
    const { out } = await holdInChild(dir, 'exit');
    expect(out).toMatch(/locked \d+/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('says what to do when the directory cannot be created', () => {
    const file = join(base, 'a-file');
    writeFileSync(file, '');
    expect(() => acquireDirectoryLock(file, purpose)).toThrow(
      new RegExp(`the test directory ${file} cannot be created or written \\(.*\\); use another one`),
    );
  });
});
