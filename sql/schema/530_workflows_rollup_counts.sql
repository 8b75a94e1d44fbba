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

-- The dashboard_workflows view over these columns is defined in 540_workflows_service_lookup.sql,
-- beside the service bits and entry key its filters read.
