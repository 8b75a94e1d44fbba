import { expect } from 'vitest';

/** The one method both `pg` clients and `mysql2/promise` connections share. */
export interface Queryable {
  query(sql: string): Promise<unknown>;
}

/**
 * Two open transactions each lock one row, then each asks for the other's: the server's deadlock
 * detector kills exactly one of them. Returns what the driver threw for the victim; rolls both back.
 */
export async function provokeDeadlock(
  a: Queryable,
  b: Queryable,
  table: string,
  begin: string,
): Promise<unknown> {
  try {
    await a.query(begin);
    await b.query(begin);
    await a.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`);
    await b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 2`);
    const results = await Promise.allSettled([
      a.query(`UPDATE ${table} SET v = v + 1 WHERE id = 2`),
      b.query(`UPDATE ${table} SET v = v + 1 WHERE id = 1`),
    ]);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    return failed[0]?.reason;
  } finally {
    await a.query('ROLLBACK').catch(() => undefined);
    await b.query('ROLLBACK').catch(() => undefined);
  }
}
