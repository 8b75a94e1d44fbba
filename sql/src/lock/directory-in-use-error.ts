import { describeEndpoints, type LockOwner } from './lock-owner.js';

/** What a lock guards and how a refused user gets unstuck, both named in the refusal. */
export interface LockPurpose {
  /** e.g. `the data directory`, `the write-ahead log`. */
  what: string;
  /** The way out besides stopping the holder, e.g. `point FAULTLINE_DATA_DIR at another directory`. */
  fix: string;
}

/** A directory another live process (or another part of this one) holds the lock of. */
export class DirectoryInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly holder: LockOwner,
    purpose: LockPurpose,
    detail: 'this-process' | 'alive' | 'foreign',
  ) {
    const who = `pid ${holder.pid} on host ${holder.host}, since ${holder.since || 'an unknown time'}`;
    const command = holder.command ? ` (command: ${holder.command})` : '';
    let message: string;
    if (detail === 'this-process') {
      message =
        `${purpose.what} ${dir} is already in use by this process (${who}): another store or writer ` +
        'holds it. Close that one first (store.close() / writer.close()), or ' +
        `${purpose.fix}.`;
    } else {
      // A running Faultline recorded where it answers: that is usually what the refused user wants.
      const serves = describeEndpoints(holder.endpoints);
      const answers = serves ? `It is a running Faultline answering at ${serves}. ` : '';
      const stop =
        detail === 'foreign'
          ? `That host's process keeps the lock fresh; stop it there`
          : `Stop that process (kill ${holder.pid})`;
      message =
        `${purpose.what} ${dir} is in use by another process: ${who}${command}. ${answers}${stop}, or ${purpose.fix}. ` +
        `Only if you are sure that process is gone, delete ${lockFile}.`;
    }
    super(message);
    this.name = 'DirectoryInUseError';
  }
}
