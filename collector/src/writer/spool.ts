import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { RejectedRow } from './row-isolation.js';

/** One spooled batch: a file named `<seq>-<rows>-<token>.jsonl` holding the JSONEachRow body. */
export interface SpoolSegment {
  seq: number;
  rows: number;
  token: string;
  bytes: number;
  file: string;
  /** When its first rows were acknowledged (epoch ms; for a segment found at start, its mtime). */
  since: number;
}

/** Where rows ClickHouse refused on their own are kept, under the spool directory. */
export const REJECTED_DIR = 'rejected';

/** What quarantineRows kept: how many rows, the first one's reason, and the file. */
export interface QuarantinedRows {
  rows: number;
  reason: string;
  file: string;
}

const SEGMENT = /^(\d{16})-(\d+)-([A-Za-z0-9_-]+)\.jsonl$/;
const TMP_PREFIX = '.tmp-';
/** A write-ahead segment still being appended to (see WalSegment): `<seq>.open`. */
const OPEN_SEGMENT = /^(\d{16})\.open$/;

/** Where an open (still appended) segment with this sequence number lives. */
export function openSegmentPath(dir: string, seq: number): string {
  return join(dir, `${String(seq).padStart(16, '0')}.open`);
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The local spool: batches ClickHouse could not take, kept on disk in arrival order until replay.
 * A segment is written to a temporary name, fsync'd, renamed, and the directory fsync'd, so a
 * segment that exists is complete and survives power loss; a leftover temporary file belongs to a
 * write that was never acknowledged and is removed at open.
 */
export class Spool {
  readonly dir: string;
  readonly #segments: SpoolSegment[] = [];
  #nextSeq = 1;
  #bytes = 0;
  #rows = 0;
  #appending = 0;
  /** Open write-ahead segments found at start (a crash left them): either writer seals them first. */
  readonly leftoverOpen: { seq: number; file: string }[] = [];

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(TMP_PREFIX)) {
        unlinkSync(join(dir, name));
        continue;
      }
      const open = OPEN_SEGMENT.exec(name);
      if (open) {
        const seq = Number(open[1]);
        this.leftoverOpen.push({ seq, file: join(dir, name) });
        this.#nextSeq = Math.max(this.#nextSeq, seq + 1);
        continue;
      }
      const m = SEGMENT.exec(name);
      if (!m) continue;
      const stat = statSync(join(dir, name));
      const segment: SpoolSegment = {
        seq: Number(m[1]),
        rows: Number(m[2]),
        token: m[3]!,
        bytes: stat.size,
        file: join(dir, name),
        since: stat.mtimeMs,
      };
      this.#track(segment);
    }
  }

  #track(segment: SpoolSegment): void {
    this.#segments.push(segment);
    this.#segments.sort((a, b) => a.seq - b.seq);
    this.#nextSeq = Math.max(this.#nextSeq, segment.seq + 1);
    this.#bytes += segment.bytes;
    this.#rows += segment.rows;
  }

  /** Segments on disk plus appends in progress: while non-zero, new batches must queue behind them. */
  get busy(): boolean {
    return this.#segments.length > 0 || this.#appending > 0;
  }

  get rows(): number {
    return this.#rows;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** When the oldest rows still on disk were acknowledged (epoch ms), or null when none are. */
  get oldestSince(): number | null {
    let oldest: number | null = null;
    for (const s of this.#segments) if (oldest === null || s.since < oldest) oldest = s.since;
    return oldest;
  }

  /** Appends one batch durably; resolves only after the data and the directory entry are fsync'd. */
  async append(body: string | Buffer, rows: number, token: string): Promise<SpoolSegment> {
    const seq = this.#nextSeq++;
    const since = Date.now();
    const name = `${String(seq).padStart(16, '0')}-${rows}-${token}.jsonl`;
    const tmp = join(this.dir, `${TMP_PREFIX}${name}`);
    this.#appending++;
    try {
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(body, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      const file = join(this.dir, name);
      await rename(tmp, file);
      await fsyncDir(this.dir);
      const segment: SpoolSegment = { seq, rows, token, bytes: Buffer.byteLength(body), file, since };
      this.#track(segment);
      return segment;
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    } finally {
      this.#appending--;
    }
  }

  /** A sequence number for a segment written elsewhere (a WAL segment) and sealed with `adopt`. */
  allocateSeq(): number {
    return this.#nextSeq++;
  }

  /**
   * Seals an fsync'd file as the segment `seq`: renamed to the segment name, directory fsync'd,
   * then queued for replay like any other. The token is fixed here, before any insert attempt.
   */
  async adopt(
    file: string,
    seq: number,
    rows: number,
    token: string,
    bytes: number,
    since: number,
  ): Promise<SpoolSegment> {
    const target = join(this.dir, `${String(seq).padStart(16, '0')}-${rows}-${token}.jsonl`);
    await rename(file, target).catch(async (err: NodeJS.ErrnoException) => {
      // A retried seal whose rename landed before its directory fsync failed: already in place.
      if (
        err.code !== 'ENOENT' ||
        !(await stat(target).then(
          () => true,
          () => false,
        ))
      )
        throw err;
    });
    await fsyncDir(this.dir);
    const segment: SpoolSegment = { seq, rows, token, bytes, file: target, since };
    this.#track(segment);
    return segment;
  }

  /** The oldest complete segment, or undefined when the spool is empty. */
  peek(): SpoolSegment | undefined {
    return this.#segments[0];
  }

  /**
   * The segment's body as bytes: handed to the insert as is, with no string copy in between. Read
   * in as few calls as the kernel allows: readFile's 512 KiB chunks each wait for a busy event
   * loop, which measured up to a second per 50 MB segment under load.
   */
  async read(segment: SpoolSegment): Promise<Buffer> {
    const handle = await open(segment.file, 'r');
    try {
      const { size } = await handle.stat();
      const body = Buffer.allocUnsafe(size);
      let offset = 0;
      while (offset < size) {
        const { bytesRead } = await handle.read(body, offset, size - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      return offset === size ? body : body.subarray(0, offset);
    } finally {
      await handle.close();
    }
  }

  /**
   * Forgets a replayed segment once its file is gone. Losing this unlink in a crash only means a
   * second replay, which the segment's deduplication token turns into a no-op; an unlink that
   * fails (a read-only directory) keeps the segment queued, so it is retried, not forgotten.
   */
  async remove(segment: SpoolSegment): Promise<void> {
    await unlink(segment.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    this.#forget(segment);
  }

  /**
   * Keeps the rows ClickHouse refused on their own in `rejected/<segment>.jsonl`, one JSON object
   * per line: `{"reason": "…", "row": <the row as it was acknowledged>}`. Written whole under a
   * temporary name and renamed, so a replay of the same segment rewrites the same file.
   */
  async quarantineRows(segment: SpoolSegment, rows: readonly RejectedRow[]): Promise<QuarantinedRows> {
    const dir = join(this.dir, REJECTED_DIR);
    mkdirSync(dir, { recursive: true });
    const target = join(dir, segment.file.slice(this.dir.length + 1));
    const parts: Buffer[] = [];
    for (const r of rows) {
      parts.push(Buffer.from(`{"reason":${JSON.stringify(r.reason)},"row":`), r.line, Buffer.from('}\n'));
    }
    const tmp = join(dir, `${TMP_PREFIX}${segment.seq}`);
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(Buffer.concat(parts));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
    await fsyncDir(dir);
    return { rows: rows.length, reason: rows[0]!.reason, file: target };
  }

  #forget(segment: SpoolSegment): void {
    const i = this.#segments.indexOf(segment);
    if (i < 0) return;
    this.#segments.splice(i, 1);
    this.#bytes -= segment.bytes;
    this.#rows -= segment.rows;
  }
}
