// A real PostgreSQL deadlock whose victim is known in advance, then the victim's statement again
// through withRetry. Shared by the demo (inventory) and the dashboard's ground-truth fixture, whose
// hand-written numbers count exactly these statements:
//   attempt 1: c1 BEGIN, c2 BEGIN, c1 TAKE a, c2 GIVE b, c2 GIVE a (waits for c1), c1 TAKE b → 40P01,
//              c1 ROLLBACK, c2 ROLLBACK — 8 statements, 1 failed;
//   attempt 2: c1 TAKE b — 1 statement.
// c1 looks for deadlocks after 100 ms, c2 only after 10 s, so PostgreSQL aborts c1 — provided c2 is
// already waiting when c1's check runs. PostgreSQL checks once per wait: should c2's GIVE a reach
// the server more than 100 ms after c1's TAKE b (a loaded machine), c1's check finds no cycle yet
// and c2's, 10 s later, aborts c2 instead. c1 therefore sends TAKE b a moment after GIVE a, and
// either victim is handled: the same 8 + 1 statements, one 40P01, and attempt 2 runs the aborted
// statement again on its own connection (GIVE a on c2 in that rare case). Neither side's rejection
// is ever left unobserved: a deadlock is the failure this exists to produce, not a crash.
// The two sides use different statement texts, so the repeat in attempt 2 is unmistakably the victim's.
// Two dedicated connections: their connects are checkouts, not calls.
import { withRetry } from '@faultline/instrumentation';

/** How long c1 lets c2's GIVE a reach the server before it closes the cycle (well under 100 ms). */
const CYCLE_DELAY_MS = 40;

/** `table` is a constant of the caller (fl_demo_stock, fl_gt_stock) with rows `a` and `b`. */
export async function deadlockThenRetry(pg, config, table, [a, b]) {
  const take = `UPDATE ${table} SET n = n - 1 WHERE id = $1`;
  const give = `UPDATE ${table} SET n = n + 1 WHERE id = $1`;
  const c1 = new pg.Client({ ...config, options: '-c deadlock_timeout=100' });
  const c2 = new pg.Client({ ...config, options: '-c deadlock_timeout=10000' });
  // A connection the server ends (restart, idle timeout) emits 'error'; unheard, it ends the process.
  const heard = [];
  for (const c of [c1, c2]) c.on('error', (err) => heard.push(err));
  /** The statement PostgreSQL aborted, to run again in attempt 2. */
  let victim = { client: c1, text: take, values: [b] };
  try {
    await c1.connect();
    await c2.connect();
    return await withRetry(
      async ({ attempt }) => {
        if (attempt > 1) return victim.client.query(victim.text, victim.values);
        await c1.query('BEGIN');
        await c2.query('BEGIN');
        await c1.query(take, [a]);
        await c2.query(give, [b]);
        // Settled at once, so its rejection (c2 the victim) is observed whatever happens meanwhile.
        const waiting = c2.query(give, [a]).then(
          () => null,
          (err) => err,
        ); // waits for c1's lock on a
        await new Promise((r) => setTimeout(r, CYCLE_DELAY_MS));
        const failed = await c1.query(take, [b]).then(
          () => null,
          (err) => err,
        ); // the cycle: PostgreSQL aborts c1 (40P01), or rarely c2
        await c1.query('ROLLBACK');
        const failed2 = await waiting;
        await c2.query('ROLLBACK');
        if (!failed && failed2) victim = { client: c2, text: give, values: [a] };
        throw failed ?? failed2 ?? new Error('expected PostgreSQL to abort c1 with a deadlock (40P01)');
      },
      { classify: { system: 'postgresql' } },
    );
  } finally {
    // end() of a connection that failed or never connected: nothing left to close.
    await Promise.allSettled([c1.end(), c2.end()]);
    if (heard.length > 0)
      console.error(`deadlock connections reported: ${heard.map((e) => e.message).join('; ')}`);
  }
}
