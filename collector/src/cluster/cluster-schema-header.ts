/** The comment that opens the printed cluster DDL: the layout and what readers and writers must do. */
export function clusterSchemaHeader(cluster: string, database: string | undefined): string {
  const db = database ?? 'the current database of the session that runs it';
  return `-- Faultline schema for the ClickHouse cluster '${cluster}' (FAULTLINE_CLICKHOUSE_CLUSTER), in ${db}.
-- Rendered from sql/schema/NNN_*.sql; run it in order against any one server of the cluster.
--
-- Layout: every table <t> of the single-node schema is a Replicated*MergeTree table <t>_local on
-- each server (Keeper path /clickhouse/tables/{shard}/{database}/<t>_local, replica '{replica}':
-- both macros come from each server's config), and a Distributed table <t> in front of it with the
-- same columns. The materialized views live on the local tables: each fires on the blocks its
-- server receives. Every statement runs ON CLUSTER ${cluster}.
--
-- Writes: collectors (and the contrib exporter, with create_schema off) insert into the
-- Distributed otel_traces, which places each span by cityHash64(TraceId), with
-- distributed_foreground_insert = 1 so an insert returns once the shards hold it and its
-- insert_deduplication_token reaches their replicated tables (replicated_deduplication_window).
--
-- Placement: tables with a TraceId column are sharded by cityHash64(TraceId), so a span's parent,
-- children and the failure rows derived from them share a shard, and the first-hand rule
-- (first_hand_failures) runs shard-locally: its IN subqueries read the _local tables. Rollups
-- whose engine merges rows by sort key and that have no TraceId are sharded by their sort key and
-- fed through their Distributed table, so the rows of one key (a workflow spanning several traces,
-- a minute of calls) meet on one shard and FINAL and background merges see them whole. Other
-- tables (alerts) take rand().
--
-- Reads go through the Distributed tables. The views need no setting; ad-hoc and named queries with
-- IN (SELECT …) over a Distributed table need distributed_product_mode = 'global' (or GLOBAL IN).
-- FINAL on a Distributed table merges per shard, which is exact for the tables placed as above.`;
}
