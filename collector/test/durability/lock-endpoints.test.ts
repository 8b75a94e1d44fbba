import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acquireDirectoryLock,
  advertiseEndpoints,
  DirectoryInUseError,
  LOCK_FILE,
  readDirectoryLock,
} from '@faultline/sql';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Issue 30: the lock of a data directory records where the running process answers, so the CLI's
// commands on the same directory talk to it; the refusal a second opener gets names those URLs.
const base = mkdtempSync(join(tmpdir(), 'fl-lock-endpoints-'));
const purpose = { what: 'the test directory', fix: 'use another one' };
const endpoints = {
  otlp: 'http://127.0.0.1:4318',
  dashboard: 'http://127.0.0.1:3000',
  sql: 'http://127.0.0.1:3000/api/sql',
};
vi.spyOn(console, 'warn').mockImplementation(() => {});
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(base, `d${++n}`);

describe('the URLs in a directory lock', () => {
  it('advertiseEndpoints rewrites the lock this process holds, same token, and readDirectoryLock reads them', () => {
    const dir = freshDir();
    expect(advertiseEndpoints(dir, endpoints)).toBe(false); // not held: nothing written
    const lock = acquireDirectoryLock(dir, purpose);
    expect(readDirectoryLock(dir)).toMatchObject({ state: 'alive', holder: { pid: process.pid } });
    expect(readDirectoryLock(dir)!.holder.endpoints).toBeUndefined();
    expect(advertiseEndpoints(dir, endpoints)).toBe(true);
    const onDisk = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    expect(onDisk).toMatchObject({ token: lock.owner.token, pid: process.pid, endpoints });
    expect(readDirectoryLock(dir)).toMatchObject({ state: 'alive', holder: { endpoints } });
    // The lock is still ours: a second open here is refused as this process's, release removes it.
    expect(() => acquireDirectoryLock(dir, purpose)).toThrow(/already in use by this process/);
    lock.release();
    expect(readDirectoryLock(dir)).toBeUndefined();
  });

  it('another live process that recorded its URLs: read as alive, and the refusal names them', async () => {
    const dir = freshDir();
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { acquireDirectoryLock } from '@faultline/sql';
         const lock = acquireDirectoryLock(process.argv[1], { what: 'x', fix: 'y' });
         lock.advertise(${JSON.stringify(endpoints)});
         console.log('locked');
         setInterval(() => {}, 1000);`,
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((ok) => child.stdout!.once('data', ok));
      expect(readDirectoryLock(dir)).toMatchObject({ state: 'alive', holder: { pid: child.pid, endpoints } });
      let refused: unknown;
      try {
        acquireDirectoryLock(dir, purpose);
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(DirectoryInUseError);
      expect((refused as Error).message).toContain(
        'It is a running Faultline answering at dashboard http://127.0.0.1:3000, OTLP http://127.0.0.1:4318/v1/traces.',
      );
    } finally {
      child.kill('SIGKILL');
      await new Promise((ok) => child.once('exit', ok));
    }
    // Killed: its file stays, and reads as left behind.
    expect(readDirectoryLock(dir)).toMatchObject({ state: 'dead', holder: { endpoints } });
  });

  it('a lock from another host: foreign while refreshed, dead after a minute without refresh', () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, LOCK_FILE);
    writeFileSync(file, JSON.stringify({ pid: 1, host: `not-${hostname()}`, token: 't', endpoints }));
    expect(readDirectoryLock(dir)).toMatchObject({ state: 'foreign', holder: { endpoints } });
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    expect(readDirectoryLock(dir)!.state).toBe('dead');
    writeFileSync(file, 'not a lock');
    expect(readDirectoryLock(dir)).toBeUndefined();
  });
});
