-- Dashboard (issue 15, pages at 10M spans): two merges the workflow panels paid for every workflow
-- of the range, replaced by numbers that merge as cheaply as the packed counters (530).
--
-- The service filter merged every workflow's service_keys array (groupArrayArray under FINAL, about
-- twice the cost of the rest of the workflows summary) to test has(). service_bits keeps one bit
-- per service, bit cityHash64(service) % 64, OR-ed on merge: a workflow with the service has its
-- bit. The bit alone also passes a workflow whose other service shares it, so the view tests the
-- bit alone only while no other service ever recorded (service_names, below) hashes to that bit;
-- otherwise it also tests service_keys, as before. Exact either way.
--
-- budget_requests merged every root workflow's entry string ('0<start ns>\t<service>', 500) to
-- learn its entry service. entry_key is the same minimum as a number: bit 127 set for a span that
-- is not a root server span, then the start in ns (63 bits last until 2262), then
-- cityHash64(service) in the low 64 bits, so min() picks the same span as min(entry) does (two
-- candidate spans starting in the same nanosecond: the lower hash, not the lower name); '~' (no
-- span) is the largest value. The panel counts by that hash and names it from service_names.
-- MATERIALIZED from the columns workflows_rollup_mv_v2 (500) writes, as service_keys is, so the
-- rule of each keeps its one home and a part written before they existed computes them on read.
ALTER TABLE workflows_rollup
    ADD COLUMN IF NOT EXISTS service_bits SimpleAggregateFunction(groupBitOr, UInt64)
        MATERIALIZED arrayReduce('groupBitOr', arrayMap(s -> bitShiftLeft(toUInt64(1), cityHash64(s) % 64), service_set)),
    ADD COLUMN IF NOT EXISTS entry_key SimpleAggregateFunction(min, UInt128)
        MATERIALIZED if(entry = '~' OR length(entry) < 22,
            toUInt128('340282366920938463463374607431768211455'),
            bitOr(bitOr(bitShiftLeft(toUInt128(startsWith(entry, '1')), 127),
                        bitShiftLeft(toUInt128(toUInt64OrZero(substring(entry, 2, 19))), 64)),
                  toUInt128(cityHash64(substring(entry, 22)))));

-- cityHash64 of the entry service, entry_key's low 64 bits: what service_names names.
CREATE OR REPLACE FUNCTION faultline_entry_service_key AS (entry_key) ->
    toUInt64(bitAnd(entry_key, toUInt128('18446744073709551615')));

-- Every service a workflow was recorded in, by its 64-bit hash: the names behind entry_key and
-- the other services that could share a service bit. One row per service and insert block, fed
-- from the rows written to workflows_rollup (so from the spans its view takes); never expires
-- (a handful of rows per service), so a service once seen keeps the bit test exact.
CREATE TABLE IF NOT EXISTS service_names (
    service_key UInt64,
    service SimpleAggregateFunction(any, String),
    first_seen SimpleAggregateFunction(min, DateTime64(9))
) ENGINE = AggregatingMergeTree()
ORDER BY service_key;

CREATE MATERIALIZED VIEW IF NOT EXISTS service_names_mv TO service_names AS
SELECT cityHash64(name) AS service_key, any(name) AS service, min(started_at) AS first_seen
FROM workflows_rollup
ARRAY JOIN service_set AS name
GROUP BY service_key;

-- The workflows that started in a time range, as a parameterized view so the workflow panels and
-- people at the SQL console share one definition:
--   SELECT * FROM dashboard_workflows(from = '2026-01-31 09:00:00', to = '2026-01-31 10:00:00', service = '')
-- FINAL merges a workflow's partial rows by sort key, a streaming merge that at 2M workflows costs
-- about half of a GROUP BY hash table; the WHERE then sees each workflow whole. The counters are
-- read from the packed columns (530, one merge each), never from their own columns.
-- FINAL reads only what a query uses; with optimize_move_to_prewhere_if_final only conditions on
-- the sort key move to PREWHERE (a workflow's partial rows pass or fail them together), so a
-- caller's `workflow_key IN (…)` reads just those workflows' rows before the merge instead of
-- merging every row of the granules they share. The time range stays after the merge: a partial
-- row may start inside the range while its workflow started before it (test/workflow-rollups).
-- FINAL still merges across day partitions (do_not_merge_across_partitions_select_final would
-- count a workflow whose batches straddle 00:00 UTC once per day).
-- The service filter: the service's bit, and service_keys only when another service shares the
-- bit (the scalar subquery is a constant by then, so without a shared bit service_keys is not
-- read at all; without a service filter it reads nothing).
CREATE OR REPLACE VIEW dashboard_workflows AS
WITH
    toUInt64(toUInt32(packed_requests)) AS root_count_merged,
    toUInt64(toUInt32(bitShiftRight(packed_requests, 32))) AS root_error_count_merged,
    -- The roots' weight, in 1/65536ths of a request (530).
    toFloat64(bitShiftRight(packed_requests, 64)) / 65536 AS root_weight_merged,
    toUInt64(toUInt32(packed_entry)) AS entry_marked_merged,
    toUInt64(toUInt32(bitShiftRight(packed_entry, 32))) AS entry_step_count_merged,
    toUInt64(toUInt32(bitShiftRight(packed_entry, 64))) AS entry_failed_attempts_merged,
    toUInt64(bitShiftRight(packed_entry, 96)) AS entry_retries_merged,
    toUInt64(toUInt32(packed_calls)) AS step_count_merged,
    toUInt64(toUInt32(bitShiftRight(packed_calls, 32))) AS failed_step_count_merged,
    toUInt64(toUInt32(bitShiftRight(packed_calls, 64))) AS failed_attempt_count_merged,
    toUInt64(bitShiftRight(packed_calls, 96)) AS retry_count_merged,
    cityHash64({service:String}) AS filter_key
SELECT
    workflow_key,
    correlation_id,
    started_at AS started,
    ended_ns - toUnixTimestamp64Nano(started_at) AS duration_ns,
    arraySort(arrayDistinct(service_set)) AS services,
    splitByChar('\t', entry) AS entry_parts,
    if(length(entry_parts) = 2, entry_parts[2], '') AS entry_service,
    faultline_entry_service_key(entry_key) AS entry_service_key,
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
    -- The requests the roots stand for under trace sampling (workflows_rollup.root_weight, 500),
    -- merged in packed_requests beside the roots' counts (530), so weighing a workflow merges no
    -- column more than counting it. A query that sums weights takes `sampled` (workflows_sampled,
    -- 535) and counts roots and 1s where it is false: whole numbers, exact, and no float sums.
    root_weight_merged AS request_weight,
    -- What the workflow stands for in the workflow panels' counts: its root requests' mean weight,
    -- so a workflow of two unsampled requests (a resubmission under the same id) counts once, and
    -- of two each kept by a 1-in-4 sampler, 4 (its requests, in request_weight, 8). A workflow with
    -- no root (calls only, a job) carries no weight of its own and counts 1.
    if(root_count_merged > 0, root_weight_merged / root_count_merged, 1.0) AS workflow_weight,
    -- request_weight's variance as an estimate: each root's (faultline_weight_variance, 005), its
    -- weight taken as the roots' mean.
    faultline_roots_variance(root_count_merged, root_weight_merged) AS request_variance,
    -- The root request failed: the outcome of a workflow with roots > 0, read without last_call
    -- (budget_requests counts root requests only; last_call cost it a tenth of its merge).
    root_error_count_merged > 0 AS root_failed,
    toBool(if(root_count_merged > 0, root_failed, last_call % 2 = 1)) AS failed
FROM workflows_rollup FINAL
WHERE started_at >= {from:DateTime} AND started_at < {to:DateTime}
  AND ({service:String} = ''
       OR (bitTest(service_bits, filter_key % 64)
           AND ((SELECT count() = 0 FROM service_names
                 WHERE {service:String} != ''
                   AND service_key % 64 = cityHash64({service:String}) % 64
                   AND service_key != cityHash64({service:String}))
                OR has(service_keys, filter_key))))
SETTINGS optimize_move_to_prewhere_if_final = 1;
