import { parseTtlDays, TTL_COLUMNS } from '../ddl/ttl-days.js';
import { assertClusterName } from './cluster-name.js';
import { onCluster, qualified, type RenderContext } from './render-context.js';
import { LOCAL_SUFFIX } from './sharding-key.js';

/**
 * FAULTLINE_TTL_DAYS in cluster form: the single-node store runs `ALTER TABLE t MODIFY TTL …` at
 * start (ttl-days.ts); in a cluster the TTL belongs to each replicated local table, on every
 * server. 0 (keep forever) renders nothing.
 */
export function renderClusterTtl(ttlDays: number, options: { cluster: string; database?: string }): string[] {
  const days = parseTtlDays(ttlDays, 'ttlDays');
  if (days === 0) return [];
  const ctx: RenderContext = {
    cluster: assertClusterName(options.cluster),
    ...(options.database ? { database: options.database } : {}),
    tables: new Map(),
  };
  return Object.entries(TTL_COLUMNS).map(
    ([table, column]) =>
      `ALTER TABLE ${qualified(ctx, table + LOCAL_SUFFIX)}${onCluster(ctx)} MODIFY TTL ${column} + toIntervalDay(${days})`,
  );
}
