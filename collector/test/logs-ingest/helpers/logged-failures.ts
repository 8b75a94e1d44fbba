import type { Store } from '@faultline/sql';

export interface FailureCount {
  service: string;
  class: string;
  code: string;
  source: string;
  n: number;
}

/**
 * Failures of `services` as every count reads them: sums of failures.weight by service, class and
 * code (a replaced guess sums to 0 and is left out). `firstHand` reads first_hand_failures (030)
 * over [from, to) instead, as the budget and the groups do.
 */
export async function failureCounts(
  store: Store,
  services: string[],
  firstHand?: { from: number; to: number },
): Promise<FailureCount[]> {
  const from = firstHand
    ? 'first_hand_failures(from = toDateTime({from:UInt32}), to = toDateTime({to:UInt32}))'
    : 'failures';
  const { rows } = await store.runReadOnly<FailureCount>(
    `SELECT ServiceName AS service, class, code, source, sum(weight) AS n
     FROM ${from}
     WHERE ServiceName IN {services:Array(String)}
     GROUP BY service, class, code, source
     HAVING n != 0
     ORDER BY service, class, code`,
    { services, from: Math.floor((firstHand?.from ?? 0) / 1000), to: Math.ceil((firstHand?.to ?? 0) / 1000) },
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
