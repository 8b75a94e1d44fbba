import { execFileSync } from 'node:child_process';

/**
 * Makes `dir` read-only the way a remounted or failing disk does: a read-only bind mount over it
 * (root only, as tests run here and in CI; chmod would not stop root). Files opened before stay
 * writable through their descriptors, as on a real remount; new files, renames and unlinks fail
 * with EROFS. Returns the function that makes it writable again.
 */
export function mountReadOnly(dir: string): () => void {
  execFileSync('mount', ['--bind', dir, dir]);
  try {
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
  } catch (err) {
    execFileSync('umount', [dir]);
    throw err;
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    execFileSync('umount', [dir]);
  };
}
