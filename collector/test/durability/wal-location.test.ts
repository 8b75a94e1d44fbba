import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Store } from '@faultline/sql';
import { DirectoryInUseError, openStore } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { resolveWriterOptions } from '../../src/writer/resolve-writer-options.js';

// Where the write-ahead log lives, which setting wins, what is refused, and one writer per log.
let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-h9-wal-location-'));
  store = await openStore({ dataDir: join(dir, 'data') });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function withSpoolEnv<T>(value: string | undefined, fn: () => T): T {
  const saved = process.env.FAULTLINE_SPOOL_DIR;
  if (value === undefined) delete process.env.FAULTLINE_SPOOL_DIR;
  else process.env.FAULTLINE_SPOOL_DIR = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.FAULTLINE_SPOOL_DIR;
    else process.env.FAULTLINE_SPOOL_DIR = saved;
  }
}

describe('the write-ahead log directory', () => {
  it('defaults to <dataDir>/wal over an embedded store, ./.faultline/spool over a server', () => {
    withSpoolEnv(undefined, () => {
      expect(resolveWriterOptions({}, '/srv/fl/data').spoolDir).toBe('/srv/fl/data/wal');
      expect(resolveWriterOptions({}).spoolDir).toBe(resolve('.faultline/spool'));
      expect(withSpoolEnv('', () => resolveWriterOptions({}, '/srv/fl/data').spoolDir)).toBe(
        '/srv/fl/data/wal',
      );
    });
  });

  it('FAULTLINE_SPOOL_DIR wins over the default, the spoolDir option over both', () => {
    withSpoolEnv('/var/spool/fl', () => {
      expect(resolveWriterOptions({}, '/srv/fl/data').spoolDir).toBe('/var/spool/fl');
      expect(resolveWriterOptions({ spoolDir: '/opt/log' }, '/srv/fl/data').spoolDir).toBe('/opt/log');
    });
  });

  it('refuses the data directory itself, a file, and an empty option, naming the setting', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    withSpoolEnv('/srv/fl/data/', () =>
      expect(() => resolveWriterOptions({}, '/srv/fl/data')).toThrow(
        'FAULTLINE_SPOOL_DIR (/srv/fl/data) cannot be the data directory itself, which chDB owns: leave it unset for /srv/fl/data/wal, or name another directory',
      ),
    );
    withSpoolEnv(file, () =>
      expect(() => resolveWriterOptions({})).toThrow(
        `FAULTLINE_SPOOL_DIR (${file}) exists and is not a directory: name a directory`,
      ),
    );
    expect(() => resolveWriterOptions({ spoolDir: ' ' })).toThrow(
      'writer option spoolDir must be a directory path, got " "',
    );
  });

  it('one writer per log in a process too: a second is refused until the first is closed', async () => {
    const first = withSpoolEnv(undefined, () => createSpanWriter(store));
    expect(first.stats().spoolDir).toBe(join(dir, 'data', 'wal'));
    await first.write([makeRow({ ServiceName: 'wal-location' })]);
    let refused: unknown;
    try {
      withSpoolEnv(undefined, () => createSpanWriter(store));
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DirectoryInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^the write-ahead log ${join(dir, 'data', 'wal')} is already in use by this process \\(pid ${process.pid} `,
      ),
    );
    await first.close();
    await expect(first.write([makeRow()])).rejects.toThrow(/is closed/);
    const second = withSpoolEnv(undefined, () => createSpanWriter(store));
    await second.settle();
    await second.close();
    const r = await store.runReadOnly<{ n: number }>(
      "SELECT count() AS n FROM otel_traces WHERE ServiceName = 'wal-location'",
    );
    expect(Number(r.rows[0]!.n)).toBe(1);
  });
});
