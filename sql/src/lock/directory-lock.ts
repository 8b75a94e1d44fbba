import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DirectoryInUseError, type LockPurpose } from './directory-in-use-error.js';
import {
  currentOwner,
  type InstanceEndpoints,
  type LockOwner,
  ownerState,
  parseOwner,
} from './lock-owner.js';

export const LOCK_FILE = 'faultline.lock';
/** The holder refreshes its lock file's mtime this often, for processes on other hosts. */
const HEARTBEAT_MS = 10_000;
/** A lock taken on another host whose file was not refreshed for this long is stale. */
export const FOREIGN_STALE_MS = 60_000;

export interface DirectoryLock {
  dir: string;
  file: string;
  owner: LockOwner;
  /** Records where this process answers in the lock file (see advertiseEndpoints). */
  advertise(endpoints: InstanceEndpoints): boolean;
  /** Deletes the lock file if it is still ours. Idempotent. */
  release(): void;
}

interface Held {
  owner: LockOwner;
  timer: NodeJS.Timeout;
}

// On globalThis like the store registry: a second copy of this module (a Next.js bundle) must see
// the locks the first one holds, or it would take this process's own lock for a stale one.
const REGISTRY = Symbol.for('faultline.directoryLocks');

function held(): Map<string, Held> {
  const g = globalThis as { [REGISTRY]?: Map<string, Held> };
  if (!g[REGISTRY]) {
    const map = new Map<string, Held>();
    g[REGISTRY] = map;
    // A process that exits without closing (process.exit) leaves no lock behind; one killed
    // leaves its file, which the next process finds dead and takes over.
    process.once('exit', () => {
      for (const [file, h] of map) removeIfOurs(file, h.owner.token);
    });
  }
  return g[REGISTRY];
}

function removeIfOurs(file: string, token: string): void {
  try {
    if (parseOwner(readFileSync(file, 'utf8'))?.token === token) unlinkSync(file);
  } catch {
    // Already gone: nothing to release.
  }
}

function writeDurably(path: string, content: string): void {
  const fd = openSync(path, 'wx');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readLock(file: string): { raw: string; mtimeMs: number } | undefined {
  try {
    return { raw: readFileSync(file, 'utf8'), mtimeMs: statSync(file).mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Moves a stale lock out of the way. Rename-then-compare, not unlink: if another process took the
 * lock over between our read and now, the file we moved is its fresh one and goes back.
 */
function removeStale(file: string, staleRaw: string): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (readFileSync(aside, 'utf8') !== staleRaw) {
    try {
      linkSync(aside, file);
    } catch {
      // A third process took it meanwhile; its file stands, ours goes.
    }
  }
  unlinkSync(aside);
}

function heartbeat(file: string, owner: LockOwner): NodeJS.Timeout {
  let warned = false;
  const timer = setInterval(() => {
    const raw = readLock(file)?.raw;
    if (parseOwner(raw ?? '')?.token !== owner.token) {
      if (!warned)
        console.error(
          `[faultline] the lock ${file} was removed or replaced by another process; two processes may now share this directory. Stop one of them.`,
        );
      warned = true;
      return;
    }
    void utimes(file, new Date(), new Date()).catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return timer;
}

/**
 * Rewrites a lock this process holds with `owner` (same token), atomically: the whole content goes
 * under a temporary name and is renamed over the lock, so a reader never sees half a file.
 * False when the file is no longer ours (removed or taken over): then nothing is written.
 */
function rewriteOwned(file: string, owner: LockOwner): boolean {
  if (parseOwner(readLock(file)?.raw ?? '')?.token !== owner.token) return false;
  const tmp = `${file}.${owner.token}.advertise.tmp`;
  try {
    try {
      unlinkSync(tmp);
    } catch {
      // Not left over: the usual case.
    }
    writeDurably(tmp, `${JSON.stringify(owner)}\n`);
    renameSync(tmp, file);
    return true;
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // Renamed or never written.
    }
    throw err;
  }
}

/**
 * Records in the lock this process holds on `dir` where it answers (its OTLP, dashboard and SQL
 * console URLs), for the CLI's commands on the same directory. Returns false when this process
 * holds no lock there (a ClickHouse server store, or a lock lost to another process).
 */
export function advertiseEndpoints(dir: string, endpoints: InstanceEndpoints): boolean {
  const file = join(resolve(dir), LOCK_FILE);
  const h = held().get(file);
  if (!h) return false;
  h.owner.endpoints = { ...h.owner.endpoints, ...endpoints };
  return rewriteOwned(file, h.owner);
}

/** A directory's lock as another command sees it: who holds it, whether it runs, where it answers. */
export interface LockState {
  file: string;
  holder: LockOwner;
  /**
   * `alive`: a process on this host that still runs (this one included, when it holds it);
   * `foreign`: taken on another host and refreshed within FOREIGN_STALE_MS; `dead`: left behind.
   */
  state: 'alive' | 'foreign' | 'dead';
}

/**
 * Reads the lock of `dir` without taking it: undefined when there is none (or it is not a lock
 * file), else its holder, with the endpoints it recorded, and whether that holder still runs.
 */
export function readDirectoryLock(dir: string): LockState | undefined {
  const file = join(resolve(dir), LOCK_FILE);
  const found = readLock(file);
  if (!found) return undefined;
  const holder = parseOwner(found.raw);
  if (!holder) return undefined;
  const mine = held().get(file)?.owner.token === holder.token;
  const state = ownerState(holder, mine);
  return {
    file,
    holder,
    state: state === 'unknown' ? (Date.now() - found.mtimeMs < FOREIGN_STALE_MS ? 'foreign' : 'dead') : state,
  };
}

/**
 * Takes the lock of a directory for this process, or throws DirectoryInUseError naming the
 * holder. The lock file is written whole under a temporary name and hard-linked into place, so it
 * appears atomically and exclusively (link fails if the name exists) with its content complete.
 * A lock whose holder is dead (no such pid on this host, an earlier boot, a reused pid, or on
 * another host not refreshed for FOREIGN_STALE_MS) is taken over.
 */
export function acquireDirectoryLock(dir: string, purpose: LockPurpose): DirectoryLock {
  const file = join(resolve(dir), LOCK_FILE);
  const locks = held();
  const mine = locks.get(file);
  if (mine) throw new DirectoryInUseError(dir, file, mine.owner, purpose, 'this-process');
  const owner = currentOwner();
  const tmp = `${file}.${owner.token}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeDurably(tmp, `${JSON.stringify(owner)}\n`);
  } catch (err) {
    throw new Error(
      `${purpose.what} ${dir} cannot be created or written (${(err as Error).message}); ${purpose.fix}`,
      { cause: err },
    );
  }
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(tmp, file);
        locks.set(file, { owner, timer: heartbeat(file, owner) });
        return {
          dir,
          file,
          owner,
          advertise(endpoints) {
            const h = locks.get(file);
            if (h?.owner.token !== owner.token) return false;
            owner.endpoints = { ...owner.endpoints, ...endpoints };
            return rewriteOwned(file, owner);
          },
          release() {
            const h = locks.get(file);
            if (h?.owner.token !== owner.token) return;
            clearInterval(h.timer);
            locks.delete(file);
            removeIfOurs(file, owner.token);
          },
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = readLock(file);
      if (!found) continue;
      const holder = parseOwner(found.raw);
      if (holder) {
        const state = ownerState(holder, false);
        if (state === 'alive') throw new DirectoryInUseError(dir, file, holder, purpose, 'alive');
        if (state === 'unknown' && Date.now() - found.mtimeMs < FOREIGN_STALE_MS)
          throw new DirectoryInUseError(dir, file, holder, purpose, 'foreign');
        console.warn(
          `[faultline] ${purpose.what} ${dir} was locked by pid ${holder.pid} on ${holder.host} since ${holder.since}, which is gone; taking it over`,
        );
      }
      removeStale(file, found.raw);
    }
    throw new Error(`could not lock ${purpose.what} ${dir}: other processes keep taking it; try again`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // Linked or not, the temporary name is ours alone.
    }
  }
}
