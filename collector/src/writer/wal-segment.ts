import { createHash, type Hash, randomUUID } from 'node:crypto';
import { type FileHandle, open, readFile, stat, truncate, unlink } from 'node:fs/promises';
import { NEWLINE } from '@faultline/sql';
import { countRows } from './row-isolation.js';
import { fsyncDir, openSegmentPath, type Spool } from './spool.js';

/** What of `chunks` follows its first `offset` bytes (after a short write). */
export function unwritten(chunks: readonly Buffer[], offset: number): Buffer[] {
  const out: Buffer[] = [];
  let skip = offset;
  for (const chunk of chunks) {
    if (skip >= chunk.length) skip -= chunk.length;
    else {
      out.push(skip > 0 ? chunk.subarray(skip) : chunk);
      skip = 0;
    }
  }
  return out;
}

/**
 * The write-ahead segment being appended to: `<seq>.open` in the spool directory. Each append is
 * one group of serialized rows (JSONEachRow, so a row never contains a raw newline) followed by one
 * fdatasync, shared by every write in the group. Sealing renames it into an ordinary spool
 * segment, with its deduplication token fixed before any insert attempt.
 */
export class WalSegment {
  rows = 0;
  bytes = 0;
  readonly openedAt = Date.now();
  /** When the first group was acknowledged (epoch ms): the age of the oldest span not yet stored. */
  firstAckAt: number | null = null;
  #closed = false;
  #token: string | undefined;
  // In `insertDedup: 'request'` mode the token is derived from the rows, so the same export sealed
  // by any collector inserts under the same token. Otherwise a random one, fixed at the seal, is
  // enough (a replay reuses it) and no byte is hashed on the ingest path.
  readonly #hash: Hash | null;

  private constructor(
    private readonly spool: Spool,
    readonly seq: number,
    readonly file: string,
    private readonly handle: FileHandle,
    contentToken: boolean,
  ) {
    this.#hash = contentToken ? createHash('sha256') : null;
  }

  /** Creates the file and makes its directory entry durable before the first acknowledgement relies on it. */
  static async create(spool: Spool, contentToken = false): Promise<WalSegment> {
    const seq = spool.allocateSeq();
    const file = openSegmentPath(spool.dir, seq);
    const handle = await open(file, 'wx');
    try {
      await fsyncDir(spool.dir);
    } catch (err) {
      await handle.close();
      await unlink(file).catch(() => {});
      throw err;
    }
    return new WalSegment(spool, seq, file, handle, contentToken);
  }

  /**
   * Appends one group (the writes' bodies, in order) and fdatasyncs it; on failure the file is cut
   * back so no partial group stays. The bodies go to the file as they are, in one writev: joining
   * them first cost a copy of every byte into a fresh buffer, a fifth of the receiver's main-thread
   * time under sustained load (ingest bench, collector profile).
   */
  async append(chunks: readonly Buffer[], rows: number): Promise<void> {
    const start = this.bytes;
    let size = 0;
    for (const chunk of chunks) size += chunk.length;
    try {
      let written = 0;
      let rest: readonly Buffer[] = chunks;
      while (written < size) {
        const { bytesWritten } = await this.handle.writev(rest as Buffer[], start + written);
        written += bytesWritten;
        if (written < size) rest = unwritten(chunks, written);
      }
      await this.handle.datasync();
    } catch (err) {
      await this.handle.truncate(start).catch(() => {});
      throw err;
    }
    this.bytes += size;
    this.rows += rows;
    if (this.#hash) for (const chunk of chunks) this.#hash.update(chunk);
    this.firstAckAt ??= Date.now();
  }

  /**
   * Closes the file and hands it to the spool as a sealed segment, in sequence order. Retryable:
   * a seal that failed (the directory read-only) is called again once it may have healed, and the
   * token is fixed on the first call, so the name it is sealed under never changes.
   */
  async seal(): Promise<void> {
    if (!this.#closed) {
      await this.handle.close();
      this.#closed = true;
    }
    this.#token ??= this.#hash ? contentToken(this.#hash) : `fl-${randomUUID()}`;
    const since = this.firstAckAt ?? this.openedAt;
    await this.spool.adopt(this.file, this.seq, this.rows, this.#token, this.bytes, since);
  }

  /**
   * Seals an open segment a crash left behind. Every acknowledged group was fdatasync'd whole, so
   * the acknowledged rows are the complete lines; anything after the last newline (or from the
   * first NUL, what a power cut can leave in an extended file) belonged to a group never
   * acknowledged and is cut off. An empty segment is removed.
   */
  static async recover(spool: Spool, file: string, seq: number): Promise<number> {
    // The last append's time: the crashed process's first ack is not recorded anywhere.
    const since = (await stat(file)).mtimeMs;
    const data = await readFile(file);
    const nul = data.indexOf(0);
    const scanned = nul < 0 ? data : data.subarray(0, nul);
    const end = scanned.lastIndexOf(NEWLINE) + 1;
    const rows = countRows(scanned.subarray(0, end));
    if (rows === 0) {
      await unlink(file);
      return 0;
    }
    if (end < data.length) {
      await truncate(file, end);
      const handle = await open(file, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    await spool.adopt(
      file,
      seq,
      rows,
      contentToken(createHash('sha256').update(data.subarray(0, end))),
      end,
      since,
    );
    return rows;
  }
}

/**
 * A segment's deduplication token from its bytes: `fl-` and 40 hex digits of their SHA-256. Equal
 * rows give equal tokens, which is what lets ClickHouse drop a repeat of them (within its
 * deduplication window) whoever inserts it.
 */
export function contentToken(hash: Hash): string {
  return `fl-${hash.digest('hex').slice(0, 40)}`;
}

/**
 * Seals every open segment a crash left in the spool, oldest first; they keep their place in line.
 * Only the writer holding the spool's lock calls this, so an open segment found here belongs to a
 * process that is gone: a live writer's segments sit in a directory no one else can lock.
 */
export async function recoverOpenSegments(spool: Spool): Promise<void> {
  for (const { seq, file } of spool.leftoverOpen.sort((a, b) => a.seq - b.seq)) {
    await WalSegment.recover(spool, file, seq);
  }
  spool.leftoverOpen.length = 0;
}
