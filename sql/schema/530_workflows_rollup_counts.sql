-- Dashboard (issue 15): the workflow panels read workflows_rollup FINAL, a merge of each workflow's
-- partial rows whose cost grows with every column it carries: at 2M workflows each counter column
-- cost about as much to merge as the sort key itself, so the counters a workflow's steps, failed
-- steps, outcome and weight come from cost several times the merge of the key. Here they are kept
-- in as few columns as the merge can sum, 32 bits each, which the merge sums as one number (a sum
-- of packed counters is the counters' sums while no counter of a workflow reaches 2^32, i.e. 4
-- billion spans of one correlation id):
--   packed_roots     root_count | root_error_count << 32                      (UInt64)
--   packed_requests  root_count | root_error_count << 32 | weight << 64      (UInt128)
--   packed_entry     entry_marked | entry_step_count << 32
--                    | entry_failed_attempts << 64 | entry_retries << 96      (UInt128)
--   packed_calls     step_count | failed_step_count << 32
--                    | failed_attempt_count << 64 | retry_count << 96        (UInt128)
-- A UInt128 merges for about one and a half UInt64s (issue 29, measured side by side): four
-- counters to a column, and the roots' weight beside their counts, so that weighing a workflow
-- reads no column more than counting it.
-- The weight is root_weight (500) in fixed point, 16 bits of fraction (1/65536 of a request: the
-- weights of 1-in-2^k samplers exactly, any other within 0.00002), at most faultline_weight_cap
-- (005, 2^40) per row. packed_roots stays
-- for the readers of the root counts alone (root_requests, the failed-workflow lookups), as a
-- UInt64 is cheaper to read than the wider pack.
-- MATERIALIZED from the counters of each row written, as service_keys is, so every writer of
-- otel_traces fills them and each counter's rule keeps its one home (workflows_rollup_mv_v2, 500);
-- a part written before they existed computes them from its counters on read until the mutation
-- below has rewritten it (in the background: nothing waits for it).
ALTER TABLE workflows_rollup
    ADD COLUMN IF NOT EXISTS packed_roots SimpleAggregateFunction(sum, UInt64)
        MATERIALIZED root_count + bitShiftLeft(root_error_count, 32),
    ADD COLUMN IF NOT EXISTS packed_requests SimpleAggregateFunction(sum, UInt128)
        MATERIALIZED toUInt128(root_count) + bitShiftLeft(toUInt128(root_error_count), 32)
            + bitShiftLeft(toUInt128(toUInt64(round(least(root_weight, faultline_weight_cap()) * 65536))), 64),
    ADD COLUMN IF NOT EXISTS packed_entry SimpleAggregateFunction(sum, UInt128)
        MATERIALIZED toUInt128(entry_marked) + bitShiftLeft(toUInt128(entry_step_count), 32)
            + bitShiftLeft(toUInt128(entry_failed_attempts), 64) + bitShiftLeft(toUInt128(entry_retries), 96),
    ADD COLUMN IF NOT EXISTS packed_calls SimpleAggregateFunction(sum, UInt128)
        MATERIALIZED toUInt128(step_count) + bitShiftLeft(toUInt128(failed_step_count), 32)
            + bitShiftLeft(toUInt128(failed_attempt_count), 64) + bitShiftLeft(toUInt128(retry_count), 96);

-- The first release's 64-bit pairs of the same counters, which packed_entry and packed_calls
-- replace: one fewer column for every insert to fill.
ALTER TABLE workflows_rollup
    DROP COLUMN IF EXISTS packed_entry_steps,
    DROP COLUMN IF EXISTS packed_steps,
    DROP COLUMN IF EXISTS packed_entry_attempts,
    DROP COLUMN IF EXISTS packed_attempts;

ALTER TABLE workflows_rollup
    MATERIALIZE COLUMN packed_requests,
    MATERIALIZE COLUMN packed_entry,
    MATERIALIZE COLUMN packed_calls;

-- The dashboard_workflows view over these columns is defined in 540_workflows_service_lookup.sql,
-- beside the service bits and entry key its filters read.
