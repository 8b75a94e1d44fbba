-- Dashboard (issue 15): the workflow panels read workflows_rollup FINAL, a merge of each workflow's
-- partial rows whose cost grows with every column it carries: at 2M workflows each counter column
-- cost about as much to merge as the sort key itself, so the ten counters a workflow's steps, failed
-- steps and outcome come from cost several times the merge of the key. Here they are also kept two
-- to a column, 32 bits each, which the merge sums as one number (a sum of packed pairs is the pair
-- of their sums while no counter of a workflow reaches 2^32, i.e. 4 billion spans of one
-- correlation id); plain UInt64 so that unpacking is a shift, not wide-integer arithmetic:
--   packed_roots           root_count            | root_error_count << 32
--   packed_entry_steps     entry_marked          | entry_step_count << 32
--   packed_steps           step_count            | failed_step_count << 32
--   packed_entry_attempts  entry_failed_attempts | entry_retries << 32
--   packed_attempts        failed_attempt_count  | retry_count << 32
-- MATERIALIZED from the counters of each row written, as service_keys is, so every writer of
-- otel_traces fills them and each counter's rule keeps its one home (workflows_rollup_mv_v2, 500);
-- a part written before they existed computes them from its counters on read.
ALTER TABLE workflows_rollup
    ADD COLUMN IF NOT EXISTS packed_roots SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED root_count + bitShiftLeft(root_error_count, 32),
    ADD COLUMN IF NOT EXISTS packed_entry_steps SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED entry_marked + bitShiftLeft(entry_step_count, 32),
    ADD COLUMN IF NOT EXISTS packed_steps SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED step_count + bitShiftLeft(failed_step_count, 32),
    ADD COLUMN IF NOT EXISTS packed_entry_attempts SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED entry_failed_attempts + bitShiftLeft(entry_retries, 32),
    ADD COLUMN IF NOT EXISTS packed_attempts SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED failed_attempt_count + bitShiftLeft(retry_count, 32);

-- The workflows that started in a time range, as a parameterized view so the workflow panels and
-- people at the SQL console share one definition:
--   SELECT * FROM dashboard_workflows(from = '2026-01-31 09:00:00', to = '2026-01-31 10:00:00', service = '')
-- FINAL merges a workflow's partial rows by sort key, a streaming merge that at 2M workflows costs
-- about half of a GROUP BY hash table; the WHERE then sees each workflow whole. The counters are
-- read from the packed columns above (one merge each), never from their own columns.
-- FINAL reads only what a query uses; with optimize_move_to_prewhere_if_final only conditions on
-- the sort key move to PREWHERE (a workflow's partial rows pass or fail them together), so a
-- caller's `workflow_key IN (…)` reads just those workflows' rows before the merge instead of
-- merging every row of the granules they share. The time range stays after the merge: a partial
-- row may start inside the range while its workflow started before it (test/workflow-rollups).
-- FINAL still merges across day partitions (do_not_merge_across_partitions_select_final would
-- count a workflow whose batches straddle 00:00 UTC once per day).
CREATE OR REPLACE VIEW dashboard_workflows AS
WITH
    toUInt64(toUInt32(packed_roots)) AS root_count_merged,
    bitShiftRight(packed_roots, 32) AS root_error_count_merged,
    toUInt64(toUInt32(packed_entry_steps)) AS entry_marked_merged,
    bitShiftRight(packed_entry_steps, 32) AS entry_step_count_merged,
    toUInt64(toUInt32(packed_steps)) AS step_count_merged,
    bitShiftRight(packed_steps, 32) AS failed_step_count_merged,
    toUInt64(toUInt32(packed_entry_attempts)) AS entry_failed_attempts_merged,
    bitShiftRight(packed_entry_attempts, 32) AS entry_retries_merged,
    toUInt64(toUInt32(packed_attempts)) AS failed_attempt_count_merged,
    bitShiftRight(packed_attempts, 32) AS retry_count_merged
SELECT
    workflow_key,
    correlation_id,
    started_at AS started,
    ended_ns - toUnixTimestamp64Nano(started_at) AS duration_ns,
    arraySort(arrayDistinct(service_set)) AS services,
    splitByChar('\t', entry) AS entry_parts,
    if(length(entry_parts) = 2, entry_parts[2], '') AS entry_service,
    -- Without entry marks every call counts; rows of the first release keep their own failed steps.
    toUInt64(if(entry_marked_merged > 0, entry_step_count_merged, step_count_merged)) AS steps,
    toUInt64(multiIf(
        entry_marked_merged > 0,
            greatest(toInt64(entry_failed_attempts_merged) - toInt64(entry_retries_merged), 0),
        failed_attempt_count_merged > 0,
            greatest(toInt64(failed_attempt_count_merged) - toInt64(retry_count_merged), 0),
        toInt64(failed_step_count_merged))) AS failed_steps,
    failure_count AS failures,
    retry_count_merged AS retries,
    misrouted_count AS misrouted,
    splitByChar('\t', first_failure) AS first_failure_parts,
    if(length(first_failure_parts) >= 4, first_failure_parts[2], '') AS first_failure_class,
    if(length(first_failure_parts) >= 4, first_failure_parts[3], '') AS first_failure_source,
    if(length(first_failure_parts) >= 4, first_failure_parts[4], '') AS first_failure_code,
    if(length(first_failure_parts) = 5, first_failure_parts[5], '') AS first_failure_service,
    root_count_merged AS roots,
    toBool(if(root_count_merged > 0, root_error_count_merged > 0, last_call % 2 = 1)) AS failed
FROM workflows_rollup FINAL
WHERE started_at >= {from:DateTime} AND started_at < {to:DateTime}
  AND ({service:String} = '' OR has(service_keys, cityHash64({service:String})))
SETTINGS optimize_move_to_prewhere_if_final = 1;
