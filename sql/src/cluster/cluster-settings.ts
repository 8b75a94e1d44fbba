/**
 * Settings for the queries Faultline sends to a cluster, beside the DDL.
 *
 * Reads: the schema's views need none (render-views.ts writes the placement into them), but the
 * named queries of sql/queries filter with `IN (SELECT … FROM <Distributed table or a CTE over
 * one>)`. Sent to every shard as they are, those subqueries would read the Distributed table again
 * from each shard, which ClickHouse refuses by default (distributed_product_mode = 'deny');
 * 'global' runs each such subquery once over the cluster and ships its result to the shards, which
 * is right whatever the placement of the tables.
 */
export const CLUSTER_READ_SETTINGS = { distributed_product_mode: 'global' } as const;

/**
 * Inserts into the Distributed tables: by default a Distributed insert returns once the block is
 * queued on the receiving server, before any shard has it; the write-ahead log must not drop a
 * segment until the shards hold it, and the deduplication token must reach the shards' replicated
 * tables, so the insert waits for the shards.
 */
export const CLUSTER_INSERT_SETTINGS = { distributed_foreground_insert: 1 } as const;
