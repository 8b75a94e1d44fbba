/**
 * The MergeTree family, which has a Replicated twin taking the Keeper path and replica name first.
 * The engines that merge rows sharing a sort key are marked: such a table's rows must meet on one
 * shard for a merge (or a FINAL read) to combine them.
 */
const MERGE_TREE_ENGINES: Record<string, { mergesRows: boolean }> = {
  MergeTree: { mergesRows: false },
  SummingMergeTree: { mergesRows: true },
  AggregatingMergeTree: { mergesRows: true },
  ReplacingMergeTree: { mergesRows: true },
  CoalescingMergeTree: { mergesRows: true },
  CollapsingMergeTree: { mergesRows: true },
  VersionedCollapsingMergeTree: { mergesRows: true },
  GraphiteMergeTree: { mergesRows: true },
};

/** Whether `engine` is a non-replicated MergeTree engine (the ones the cluster schema replaces). */
export const isMergeTreeEngine = (engine: string): boolean => Object.hasOwn(MERGE_TREE_ENGINES, engine);

/** Whether `engine` merges rows that share a sort key (Summing, Aggregating, Replacing …). */
export const mergesRows = (engine: string): boolean => MERGE_TREE_ENGINES[engine]?.mergesRows ?? false;

/** The Replicated engine standing for `engine`. */
export const replicatedEngine = (engine: string): string => `Replicated${engine}`;

/** The Keeper path of a replicated local table; `{shard}` and `{replica}` are each server's macros. */
export const replicaPath = (localName: string): string =>
  `'/clickhouse/tables/{shard}/{database}/${localName}'`;
