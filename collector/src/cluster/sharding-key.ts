import { mergesRows } from './table-engines.js';
import type { TableDefinition } from './table-definition.js';

/**
 * Where a table's rows live in the cluster.
 *
 * - A table with a `TraceId` column is sharded by `cityHash64(TraceId)`: every span of a trace,
 *   and every row the materialized views derive from one, is on one shard. The first-hand rule
 *   (sql/schema/030) compares a failure with its parent and children, which share its trace, so
 *   it runs on each shard against that shard's rows alone.
 * - A table whose engine merges rows by sort key (Summing, Aggregating, Replacing …) and has no
 *   trace id is sharded by its sort key: the rows that merge meet on one shard, so background
 *   merges combine them and a `FINAL` read (dashboard_workflows) sees each key whole. A workflow
 *   (one correlation id) may span several traces, hence several shards of otel_traces; its partial
 *   rows are routed to the shard of its key. Materialized views feeding such a table therefore
 *   write through its Distributed table.
 * - Any other table (alert_events …) takes `rand()`: its reads aggregate across shards anyway.
 */
export interface TablePlacement {
  name: string;
  localName: string;
  /** The Distributed table's sharding key. */
  shardingKey: string;
  /** Rows are placed by trace: reads may join and IN-filter it with other trace tables shard-locally. */
  byTrace: boolean;
  /** Materialized views feeding this table write to its Distributed table (re-sharded by key). */
  viewsWriteThroughDistributed: boolean;
}

export const LOCAL_SUFFIX = '_local';

export function placeTable(table: TableDefinition): TablePlacement {
  const base = { name: table.name, localName: table.name + LOCAL_SUFFIX };
  if (table.columns.includes('TraceId')) {
    return { ...base, shardingKey: 'cityHash64(TraceId)', byTrace: true, viewsWriteThroughDistributed: false };
  }
  if (mergesRows(table.engine) && table.sortKey.length > 0) {
    return {
      ...base,
      shardingKey: `cityHash64(${table.sortKey.join(', ')})`,
      byTrace: false,
      viewsWriteThroughDistributed: true,
    };
  }
  return { ...base, shardingKey: 'rand()', byTrace: false, viewsWriteThroughDistributed: false };
}
