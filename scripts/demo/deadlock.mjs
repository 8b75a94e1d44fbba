// A real PostgreSQL deadlock whose victim is known in advance, then the victim's statement again
// through withRetry. Shared by the demo (inventory) and the dashboard's ground-truth fixture, whose
// hand-written numbers count exactly these statements:
//   attempt 1: c1 BEGIN, c2 BEGIN, c1 TAKE a, c2 GIVE b, c2 GIVE a (waits for c1), c1 TAKE b → 40P01,
//              c1 ROLLBACK, c2 ROLLBACK — 8 statements, 1 failed;
//   attempt 2: c1 TAKE b — 1 statement.
// c1 looks for deadlocks after 100 ms, c2 only after 10 s, so PostgreSQL always aborts c1. The two
// sides use different statement texts, so the repeat in attempt 2 is unmistakably c1's.
// Two dedicated connections: their connects are checkouts, not calls.
import { withRetry } from '@faultline/instrumentation';

/** `table` is a constant of the caller (fl_demo_stock, fl_gt_stock) with rows `a` and `b`. */
export async function deadlockThenRetry(pg, config, table, [a, b]) {
  const take = `UPDATE ${table} SET n = n - 1 WHERE id = $1`;
  const give = `UPDATE ${table} SET n = n + 1 WHERE id = $1`;
  const c1 = new pg.Client({ ...config, options: '-c deadlock_timeout=100' });
  const c2 = new pg.Client({ ...config, options: '-c deadlock_timeout=10000' });
  await c1.connect();
  await c2.connect();
  try {
    return await withRetry(
      async ({ attempt }) => {
        if (attempt > 1) return c1.query(take, [b]);
        await c1.query('BEGIN');
        await c2.query('BEGIN');
        await c1.query(take, [a]);
        await c2.query(give, [b]);
        const waiting = c2.query(give, [a]); // waits for c1's lock on a
        const failed = await c1.query(take, [b]).then(
          () => null,
          (err) => err,
        ); // the cycle: PostgreSQL aborts c1 (40P01)
        await c1.query('ROLLBACK');
        await waiting;
        await c2.query('ROLLBACK');
        throw failed ?? new Error('expected PostgreSQL to abort c1 with a deadlock (40P01)');
      },
      { classify: { system: 'postgresql' } },
    );
  } finally {
    await c1.end();
    await c2.end();
  }
}
