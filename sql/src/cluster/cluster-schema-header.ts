/** The comment that opens the printed cluster DDL: the layout and what readers and writers must do. */
export function clusterSchemaHeader(cluster: string, database: string | undefined): string {
  const db = database ? `database ${database}` : 'the default database of each server';
  return `-- Faultline schema for the ClickHouse cluster '${cluster}' (FAULTLINE_CLICKHOUSE_CLUSTER), in ${db}.
-- Rendered from sql/schema/NNN_*.sql; run it in order against any one server of the cluster.
--
-- Layout: every table <t> of the single-node schema is a Replicated*MergeTree table <t>_local on
-- each server (Keeper path /clickhouse/tables/{shard}/{database}/<t>_local, replica '{replica}':
-- both macros come from each server's config), and a Distributed table <t> in front of it with the
-- same columns. The materialized views live on the local tables: each fires on the blocks its
-- server receives. Every statement runs ON CLUSTER ${cluster}; FAULTLINE_TTL_DAYS, when not 0,
-- ends the list as a TTL on the local tables. Each <shard> of the cluster needs
-- <internal_replication>true</internal_replication>: the Replicated tables copy a block to the
-- other replicas themselves, so a Distributed insert must write one replica only.
--
-- Writes: collectors (and the contrib exporter, with create_schema off) insert into the
-- Distributed otel_traces, which places each span by cityHash64(TraceId), with
-- distributed_foreground_insert = 1 so an insert returns once the shards hold it and its
-- insert_deduplication_token reaches their replicated tables (replicated_deduplication_window).
--
-- Placement: a materialized view writes the local tables of the shard that received the span, so
-- everything derived from a trace is on the shard of that trace. Tables with a TraceId column are
-- sharded by cityHash64(TraceId) as well, so a span's parent, children and the failure rows derived
-- from them share a shard and the first-hand rule (first_hand_failures) runs shard-locally: its IN
-- subqueries read the _local tables. Rollups that merge rows by sort key take their sort key as
-- sharding key (direct inserts, e.g. backfills, land by key), but their view-fed rows of one key
-- (a minute of calls, a workflow spanning several traces) may sit on several shards: reads
-- aggregate them with GROUP BY, and dashboard_workflows' FINAL is rendered as a GROUP BY across
-- shards. Other tables (alerts) take rand(). No view writes through a Distributed table: a
-- Distributed insert forwards the query's settings, the client's insert_deduplication_token among
-- them, so blocks that several shards (or two views) send to one shard could share a token and all
-- but the first be dropped as repeats.
--
-- Reads go through the Distributed tables. The views need no setting; ad-hoc and named queries with
-- IN (SELECT …) over a Distributed table need distributed_product_mode = 'global' (or GLOBAL IN).
-- FINAL on a Distributed table merges each shard apart: exact for tables placed by trace only.`;
}
