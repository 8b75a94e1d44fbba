import { acquireDirectoryLock, type DirectoryLock } from '@faultline/sql';

/**
 * Locks the write-ahead log / spool directory for one writer. Without it, a writer starting on a
 * directory another live writer uses would seal that writer's open segment as "left by a crash"
 * and insert its spans into its own store: the lock makes every segment found at start one of a
 * process that is gone.
 */
export function lockSpool(spoolDir: string): DirectoryLock {
  return acquireDirectoryLock(spoolDir, {
    what: 'the write-ahead log',
    fix:
      'give this collector its own log: unset FAULTLINE_SPOOL_DIR (each FAULTLINE_DATA_DIR then keeps ' +
      'its own under <data dir>/wal) or set it (--spool-dir) to a directory no other collector uses',
  });
}
