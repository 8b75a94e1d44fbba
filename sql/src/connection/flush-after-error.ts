import type { ClickHouseClient } from '@clickhouse/client';

/**
 * chDB 3.4 keeps the partial output of a query that failed mid-way (a timeout, throwIf) and
 * prepends it to the next result in the same session, which then fails to parse. One throwaway
 * query after a failure clears it; server connections do not need this.
 */
export async function flushAfterError<T>(
  client: ClickHouseClient,
  embedded: boolean,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (embedded) {
      await client
        .query({ query: 'SELECT 1', format: 'TabSeparated' })
        .then((rs) => rs.text())
        .catch(() => {});
    }
    throw err;
  }
}
