import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool } from '../../src/writer/spool.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h4a-spool-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('Spool', () => {
  it('keeps segments in append order across a reopen, with their token, row count and bytes', async () => {
    const a = new Spool(dir);
    await a.append('{"n":1}\n', 1, 'fl-a');
    await a.append('{"n":2}\n{"n":3}\n', 2, 'fl-b');
    const b = new Spool(dir);
    expect(b.rows).toBe(3);
    expect(b.bytes).toBe(24);
    const first = b.peek()!;
    expect([first.token, first.rows, (await b.read(first)).toString()]).toEqual(['fl-a', 1, '{"n":1}\n']);
    await b.remove(first);
    expect(b.peek()!.token).toBe('fl-b');
    const next = await b.append('{"n":4}\n', 1, 'fl-c');
    expect(next.seq).toBeGreaterThan(b.peek()!.seq);
  });

  it('drops a half-written temporary file (never acknowledged) at open', async () => {
    writeFileSync(join(dir, '.tmp-0000000000000001-5-fl-x.jsonl'), '{"trunc');
    const s = new Spool(dir);
    expect(s.peek()).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps refused rows with their reason under rejected/, out of the replay path, rewritten whole on a second call', async () => {
    const s = new Spool(dir);
    const seg = await s.append('{"a":1}\n{"b":2}\n', 2, 'fl-q');
    const rows = [{ line: Buffer.from('{"b":2}'), reason: 'Code: 41. bad "time"' }];
    const kept = await s.quarantineRows(seg, rows);
    await s.quarantineRows(seg, rows);
    expect(kept).toEqual({
      rows: 1,
      reason: 'Code: 41. bad "time"',
      file: expect.stringContaining(join(dir, 'rejected')),
    });
    expect(readFileSync(kept.file, 'utf8')).toBe('{"reason":"Code: 41. bad \\"time\\"","row":{"b":2}}\n');
    expect(JSON.parse(readFileSync(kept.file, 'utf8'))).toEqual({
      reason: 'Code: 41. bad "time"',
      row: { b: 2 },
    });
    await s.remove(seg);
    expect(new Spool(dir).peek()).toBeUndefined();
    expect(existsSync(kept.file)).toBe(true);
  });

  it('reports busy while segments wait', async () => {
    const s = new Spool(dir);
    expect(s.busy).toBe(false);
    const seg = await s.append('{}\n', 1, 'fl-z');
    expect(s.busy).toBe(true);
    await s.remove(seg);
    expect(s.busy).toBe(false);
  });
});
