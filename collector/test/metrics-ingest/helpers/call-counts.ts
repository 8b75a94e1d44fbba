import type { Store } from '@faultline/sql';
import type { CallCountRow } from '../../../src/metrics-ingest/call-count-row.js';

/** A call_counts_1m key with its sums: a stored row without its minute. */
export type CallCountSum = Omit<CallCountRow, 'minute'>;

/** call_counts_1m of one service, summed per key as every reader must (rows merge lazily). */
export async function callCounts(store: Store, service: string): Promise<CallCountSum[]> {
  const rs = await store.client.query({
    query: `SELECT ServiceName, SpanKind, source, dependency, class, code, entry, propagated,
                   sum(calls) AS calls, sum(failures) AS failures
            FROM call_counts_1m WHERE ServiceName = {service:String}
            GROUP BY ServiceName, SpanKind, source, dependency, class, code, entry, propagated
            ORDER BY SpanKind, dependency, class`,
    query_params: { service },
    format: 'JSONEachRow',
  });
  return rs.json<CallCountSum>();
}

/** Raw rows (one per stored data point) of one service, for checks on minute and row count. */
export async function rawCallCountRows(store: Store, service: string): Promise<Record<string, unknown>[]> {
  const rs = await store.client.query({
    query:
      'SELECT toUnixTimestamp(minute) AS minute, * EXCEPT minute FROM call_counts_1m WHERE ServiceName = {service:String}',
    query_params: { service },
    format: 'JSONEachRow',
  });
  return rs.json();
}
