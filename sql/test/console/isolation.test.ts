import { Session } from 'chdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleRefusal } from '../../src/console/console-refusal.js';
import { createEmbeddedConsole } from '../../src/console/embedded-console-backend.js';
import type { Store } from '../../src/types.js';
import { type ConsoleStore, openConsoleStore, SEEDED, seedCalls } from './helpers/console-store.js';

// Each console statement runs on a session of its own: a SET or a temporary table (the console
// refuses both, but say one got through, or another session on the engine made them) never
// reaches another statement, and two statements at once keep their own limits.
let cs: ConsoleStore;
let store: Store;

beforeAll(async () => {
  cs = await openConsoleStore('isolation');
  store = cs.store;
  await seedCalls(store);
});

afterAll(async () => {
  await cs?.close();
});

const failureCount = Object.values(SEEDED.failuresByClass).reduce((a, b) => a + b, 0);

describe('one session per statement', () => {
  it('SET and CREATE TEMPORARY TABLE are refused, and the next statement is as before', async () => {
    await expect(
      store.runReadOnly("SET max_result_rows = 1, result_overflow_mode = 'break'"),
    ).rejects.toBeInstanceOf(ConsoleRefusal);
    await expect(store.runReadOnly('CREATE TEMPORARY TABLE failures (class String)')).rejects.toBeInstanceOf(
      ConsoleRefusal,
    );
    expect((await store.runReadOnly('SELECT number FROM numbers(5)')).rows).toHaveLength(5);
    expect((await store.runReadOnly('SELECT class FROM failures')).rows).toHaveLength(failureCount);
  });

  it('a console session that did SET and create a temporary table `failures` leaves no trace', async () => {
    // A console connection opened without the console's settings, standing in for one whose
    // statement changed its session: a row cap of 1 and a temporary `failures` holding one row.
    const conn = await createEmbeddedConsole(cs.dataDir, 'default').open({});
    await conn.rows("SET max_result_rows = 1, result_overflow_mode = 'break'", {});
    await conn.rows('CREATE TEMPORARY TABLE failures (class String) ENGINE = Memory', {});
    await conn.rows("INSERT INTO failures VALUES ('spoofed')", {});
    expect(await conn.rows('SELECT class FROM failures', {})).toEqual([['spoofed']]);
    try {
      // While it is open and after it is closed, console statements see the real table, uncapped.
      const during = await store.runReadOnly<{ class: string }>('SELECT class FROM failures ORDER BY class');
      expect(during.rows).toHaveLength(failureCount);
      expect(during.rows.map((r) => r.class)).not.toContain('spoofed');
      expect((await store.runReadOnly('SELECT number FROM numbers(5)')).rows).toHaveLength(5);
    } finally {
      conn.close();
    }
    expect((await store.runReadOnly('SELECT class FROM failures')).rows).toHaveLength(failureCount);
  });

  it('the same holds for a session outside the console on the same engine', async () => {
    const other = new Session(cs.dataDir);
    try {
      await other.queryAsync("SET max_result_rows = 2, result_overflow_mode = 'break'");
      await other.queryAsync(
        "CREATE TEMPORARY TABLE failures (class String) ENGINE = Memory AS SELECT 'spoofed'",
      );
      const r = await store.runReadOnly<{ class: string }>('SELECT class FROM failures');
      expect(r.rows).toHaveLength(failureCount);
      expect((await store.runReadOnly('SELECT number FROM numbers(5)')).rows).toHaveLength(5);
    } finally {
      other.close();
    }
  });

  it('two statements at once each keep their own limits', async () => {
    const [three, fifty, seven] = await Promise.all([
      store.runReadOnly('SELECT number FROM numbers(100)', {}, { maxRows: 3 }),
      store.runReadOnly('SELECT number FROM numbers(100)', {}, { maxRows: 50 }),
      store.runReadOnly('SELECT number FROM numbers(100)', {}, { maxRows: 7 }),
    ]);
    expect([three.rows.length, fifty.rows.length, seven.rows.length]).toEqual([3, 50, 7]);
    expect([three.truncated, fifty.truncated, seven.truncated]).toEqual([true, true, true]);
  });
});
