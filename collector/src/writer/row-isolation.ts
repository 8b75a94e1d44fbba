import { NEWLINE } from '@faultline/sql';
import { rowRefusal } from './insert-failure.js';

/** A row ClickHouse refused on its own, with why. */
export interface RejectedRow {
  /** The row's JSONEachRow line, without its newline. */
  line: Buffer;
  reason: string;
}

export type InsertBody = (body: Buffer, token: string) => Promise<void>;

/** What insertIsolatingRows did: whether it had to split, and the rows refused on their own. */
export interface IsolatedInsert {
  split: boolean;
  rejected: RejectedRow[];
}

/**
 * Inserts a JSONEachRow body under `token`; when ClickHouse refuses it for its rows (rowRefusal),
 * halves it and inserts each half under a token derived from the parent's, recursively, until
 * the refused rows stand alone: they are returned, everything else has landed. The derived tokens
 * are a function of the body and the token only, so a replay after a crash mid-split splits the
 * same way and ClickHouse drops the halves that already landed as duplicates.
 * Any other failure propagates at once: the caller retries the whole body later, and the halves
 * already in are again deduplicated.
 */
export async function insertIsolatingRows(
  insert: InsertBody,
  body: Buffer,
  token: string,
): Promise<IsolatedInsert> {
  try {
    await insert(body, token);
    return { split: false, rejected: [] };
  } catch (err) {
    const reason = rowRefusal(err);
    if (reason === null) throw err;
    const rejected: RejectedRow[] = [];
    // `_` never occurs in a base token (`fl-<uuid>`), so a derived token never equals another base.
    await split(insert, body, `${token}_`, reason, rejected);
    return { split: true, rejected };
  }
}

async function split(
  insert: InsertBody,
  body: Buffer,
  prefix: string,
  reason: string,
  rejected: RejectedRow[],
): Promise<void> {
  const rows = countRows(body);
  if (rows <= 1) {
    const end = body[body.length - 1] === NEWLINE ? body.length - 1 : body.length;
    if (end > 0) rejected.push({ line: body.subarray(0, end), reason });
    return;
  }
  const mid = offsetAfterRow(body, Math.floor(rows / 2));
  const halves: [Buffer, string][] = [
    [body.subarray(0, mid), `${prefix}a`],
    [body.subarray(mid), `${prefix}b`],
  ];
  for (const [half, token] of halves) {
    try {
      await insert(half, token);
    } catch (halfErr) {
      const halfReason = rowRefusal(halfErr);
      if (halfReason === null) throw halfErr;
      await split(insert, half, token, halfReason, rejected);
    }
  }
}

/** Rows in a JSONEachRow body: its newlines, plus a last line without one. */
export function countRows(body: Buffer): number {
  let rows = 0;
  for (let i = body.indexOf(NEWLINE); i >= 0; i = body.indexOf(NEWLINE, i + 1)) rows++;
  if (body.length > 0 && body[body.length - 1] !== NEWLINE) rows++;
  return rows;
}

function offsetAfterRow(body: Buffer, row: number): number {
  let at = -1;
  for (let n = 0; n < row; n++) at = body.indexOf(NEWLINE, at + 1);
  return at + 1;
}
