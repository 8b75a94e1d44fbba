import type { TableDefinition } from './table-definition.js';
import { mergesRows } from './table-engines.js';

/**
 * Where a table's rows live in the cluster.
 *
 * Spans are inserted into the Distributed otel_traces, sharded by `cityHash64(TraceId)`: every span
 * of a trace is on one shard. The materialized views run on the shard that received the block and
 * write its local tables, so every row they derive from a span (failures, retry_attempts, the
 * rollups) is on the shard of that span's trace.
 *
 * - A table with a `TraceId` column is sharded by `cityHash64(TraceId)` too, so a direct insert
 *   lands where the views would have put it. The first-hand rule (sql/schema/030) compares a
 *   failure with its parent and children, which share its trace, so it runs on each shard against
 *   that shard's rows alone.
 * - A table whose engine merges rows by sort key (Summing, Aggregating, Replacing …) without a
 *   trace id is sharded by its sort key: a direct insert (a backfill) puts the rows of one key on
 *   one shard. Rows its views write still land on the shard of their trace, so one key (a workflow
 *   spanning several traces, a minute of calls) may have partial rows on several shards: reads
 *   aggregate … GROUP BY (the dashboard's queries do), and a view reading it FINAL is rewritten to
 *   merge across shards (merged-rows.ts).
 * - Any other table (alert_events …) takes `rand()`: its reads aggregate across shards anyway.
 *
 * The views do not write through the Distributed tables: a Distributed insert forwards the query's
 * settings, the client's insert_deduplication_token among them, so the blocks that several shards
 * (or two views) send to one shard's replicated table could share a token and all but the first be
 * dropped as repeats (ClickHouse does not document deduplication through Distributed, issue 76405).
 */
export interface TablePlacement {
  name: string;
  localName: string;
  /** The Distributed table's sharding key. */
  shardingKey: string;
  /** Rows are placed by trace: reads may join and IN-filter it with other trace tables shard-locally. */
  byTrace: boolean;
  /** The rows of one sort key may sit on several shards and merge only when read together. */
  mergesAcrossShards: boolean;
  /** The definition, with the columns ALTER … ADD COLUMN added since. */
  definition: TableDefinition;
}

export const LOCAL_SUFFIX = '_local';

export function placeTable(table: TableDefinition): TablePlacement {
  const base = { name: table.name, localName: table.name + LOCAL_SUFFIX, definition: table };
  if (table.columns.some((c) => c.name === 'TraceId')) {
    return { ...base, shardingKey: 'cityHash64(TraceId)', byTrace: true, mergesAcrossShards: false };
  }
  const merges = mergesRows(table.engine) && table.sortKey.length > 0;
  return {
    ...base,
    shardingKey: merges ? `cityHash64(${table.sortKey.join(', ')})` : 'rand()',
    byTrace: false,
    mergesAcrossShards: merges,
  };
}
