-- Dashboard (H5, H11): one row per workflow (correlation id), so the Workflows page and the Request
-- view never group raw spans. At 10M spans (2M workflows) grouping otel_traces by the correlation id
-- attribute took seconds; this rollup is narrow (no Map column) and sorted by correlation id.
-- The materialized view folds each insert block into one row per workflow; rows of one workflow
-- from several batches merge lazily (AggregatingMergeTree), so reads aggregate … GROUP BY
-- workflow_key (or read FINAL), which the dashboard_workflows view (530) does.
-- Plain numbers and strings, not tuples or uniq-sets: min/max over tuples and groupUniqArray cost
-- 10-20x more per workflow at read time. Sentinels keep min/max meaningful across partial rows.
CREATE TABLE IF NOT EXISTS workflows_rollup (
    -- Grouping by a 64-bit hash is cheaper than by the string; the id itself is kept for display.
    workflow_key UInt64,
    correlation_id SimpleAggregateFunction(any, String) CODEC(ZSTD(1)),
    started_at SimpleAggregateFunction(min, DateTime64(9)) CODEC(Delta(8), ZSTD(1)),
    ended_ns SimpleAggregateFunction(max, UInt64) CODEC(T64, ZSTD(1)),
    -- Concatenated, deduplicated on read: a workflow touches a handful of services.
    service_set SimpleAggregateFunction(groupArrayArray, Array(String)),
    -- The same services as 64-bit hashes, for the service filter: numbers read and compare cheaper
    -- than strings, and a hash stands for its name as workflow_key does for the correlation id.
    -- Computed on insert from service_set, so every writer of otel_traces fills it; partial rows
    -- concatenate both arrays alike.
    service_keys SimpleAggregateFunction(groupArrayArray, Array(UInt64))
        MATERIALIZED arrayMap(s -> cityHash64(s), service_set),
    step_count SimpleAggregateFunction(sum, UInt64),
    failed_step_count SimpleAggregateFunction(sum, UInt64),
    failure_count SimpleAggregateFunction(sum, UInt64),
    retry_count SimpleAggregateFunction(sum, UInt64),
    misrouted_count SimpleAggregateFunction(sum, UInt64),
    root_count SimpleAggregateFunction(sum, UInt64),
    root_error_count SimpleAggregateFunction(sum, UInt64),
    -- The earliest classified failure as '<19-digit unix ns>\t<class>\t<source>\t<code>' (sorts by
    -- time); '~' (after every digit) when the block had none.
    first_failure SimpleAggregateFunction(min, String),
    -- The latest outbound call as unix ns * 2 + (1 if it failed): its parity decides the outcome
    -- when no root span was recorded. 0 when the block had no outbound call.
    last_call SimpleAggregateFunction(max, UInt64)
) ENGINE = AggregatingMergeTree()
PARTITION BY toDate(started_at)
ORDER BY workflow_key
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A replayed write-ahead segment arrives again under its deduplication token: the window makes
-- this table drop the repeat as otel_traces does (the writer sets
-- deduplicate_blocks_in_dependent_materialized_views), so it is counted once here too.
ALTER TABLE workflows_rollup MODIFY SETTING non_replicated_deduplication_window = 1000;

-- A table created before service_keys existed gets it here; its older parts compute it on read.
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS service_keys
    SimpleAggregateFunction(groupArrayArray, Array(UInt64))
    MATERIALIZED arrayMap(s -> cityHash64(s), service_set) AFTER service_set;

-- The entry service: '0<start ns>\t<service>' for a root server span (no parent), '1<start ns>\t…'
-- for any other span, so min() picks the root and, without one, the earliest span's service.
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS entry SimpleAggregateFunction(min, String) DEFAULT '~';
-- The entry service's logical calls, from the spans the preload marked faultline.entry (its root
-- server span had no parent, so this process received the request from outside): the steps that
-- are a first attempt, failed attempts and retries. A step fails when its last attempt failed;
-- every retry follows a failed attempt of the same operation, so failed steps = failed attempts -
-- retries. Without marks (spans of other SDKs) every call of the workflow stands in
-- (failed_attempt_count). Plain sums: per-service maps cost 20x more to merge under FINAL.
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS entry_marked SimpleAggregateFunction(sum, UInt64);
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS entry_step_count SimpleAggregateFunction(sum, UInt64);
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS entry_failed_attempts SimpleAggregateFunction(sum, UInt64);
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS entry_retries SimpleAggregateFunction(sum, UInt64);
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS failed_attempt_count SimpleAggregateFunction(sum, UInt64);
-- How many requests the workflow's root server span stands for under trace sampling (its
-- faultline_span_weight, 005): 1/p of a sampled root, 1 for a failed root the preload kept, 0 for a
-- root exported only to explain a kept failure. budget_requests sums it. A part written before the
-- column existed reads its root count.
ALTER TABLE workflows_rollup ADD COLUMN IF NOT EXISTS root_weight SimpleAggregateFunction(sum, Float64)
    DEFAULT toFloat64(root_count);

-- A call is an outbound call (faultline_outbound_call, 005) that faultline_call_role counts. A
-- workflow failed when its root server span failed (faultline_failed: an envelope or an Error
-- status); without a recorded root, when its last outbound call failed. The first failure is the
-- failure that ENDED first among those the preload did not already know to be echoes
-- (faultline_propagated, the in-process half of first-hand). The other half needs no test here:
-- an echo across services ends after the failure it echoes (a caller's 422 after the callee's
-- 23505), so the earliest end is where the trouble started, first-hand. An SDK's earlier
-- internal attempts (faultline.attempts, 005) failed before the operation's own end; their start
-- time stands for their end. The _v2 view replaces the first release's (dropped here), which took
-- the earliest START, the entry's own server span.
DROP VIEW IF EXISTS workflows_rollup_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS workflows_rollup_mv_v2 TO workflows_rollup AS
WITH
    faultline_span_kind(otel_traces.SpanKind) AS kind,
    SpanAttributes['faultline.class'] AS class,
    -- The first attempt of this span's operation is a repeat of an earlier span: not a new step.
    greatest(toUInt16OrZero(SpanAttributes['faultline.attempt']),
             toUInt16OrZero(SpanAttributes['http.request.resend_count']) + 1) > 1 AS repeats_earlier,
    faultline_sdk_attempts(SpanAttributes) AS sdk_attempts,
    sdk_attempts > 1 AND SpanAttributes['faultline.previous_class'] != '' AS had_prior_failures,
    -- This span is a retry when it repeats an earlier span; an SDK's own retries happen inside it.
    toUInt64(repeats_earlier) + if(sdk_attempts > 1, sdk_attempts - 1, 0) AS span_retries,
    faultline_outbound_call(otel_traces.SpanKind) AS is_call,
    SpanAttributes['faultline.entry'] = 'true' AS is_entry,
    toUInt64(class != '') + if(had_prior_failures, sdk_attempts - 1, 0) AS failed_attempts,
    kind = 'Server' AND ParentSpanId = '' AS is_root,
    faultline_failed(SpanAttributes, StatusCode) AS span_failed,
    faultline_source(SpanAttributes) AS source,
    toString(ServiceName) AS service,
    toUnixTimestamp64Nano(Timestamp) AS start_ns
SELECT
    cityHash64(SpanAttributes['faultline.correlation_id']) AS workflow_key,
    any(SpanAttributes['faultline.correlation_id']) AS correlation_id,
    min(Timestamp) AS started_at,
    max(toUnixTimestamp64Nano(Timestamp) + Duration) AS ended_ns,
    groupUniqArray(service) AS service_set,
    countIf(is_call AND NOT repeats_earlier) AS step_count,
    countIf(is_call AND NOT repeats_earlier AND class != '') AS failed_step_count,
    countIf(class != '') AS failure_count,
    sumIf(span_retries, is_call) AS retry_count,
    countIf(SpanAttributes['faultline.misrouted_retry'] = 'true') AS misrouted_count,
    countIf(is_root) AS root_count,
    countIf(is_root AND span_failed) AS root_error_count,
    min(multiIf(
        had_prior_failures,
            concat(leftPad(toString(start_ns), 19, '0'), '\t', SpanAttributes['faultline.previous_class'], '\t',
                   source, '\t', SpanAttributes['faultline.previous_code'], '\t', service),
        class != '' AND NOT faultline_propagated(SpanAttributes),
            concat(leftPad(toString(start_ns + Duration), 19, '0'), '\t', class, '\t',
                   source, '\t', SpanAttributes['faultline.code'], '\t', service),
        '~')) AS first_failure,
    max(if(is_call, toUInt64(start_ns) * 2 + span_failed, 0)) AS last_call,
    min(concat(if(is_root, '0', '1'), leftPad(toString(start_ns), 19, '0'), '\t', service)) AS entry,
    countIf(is_entry) AS entry_marked,
    countIf(is_call AND is_entry AND NOT repeats_earlier) AS entry_step_count,
    sumIf(failed_attempts, is_call AND is_entry) AS entry_failed_attempts,
    sumIf(span_retries, is_call AND is_entry) AS entry_retries,
    sumIf(failed_attempts, is_call) AS failed_attempt_count,
    sumIf(faultline_span_weight(TraceState, SpanAttributes), is_root) AS root_weight
FROM otel_traces
WHERE SpanAttributes['faultline.correlation_id'] != ''
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = ''
GROUP BY workflow_key;

-- The dashboard_workflows view over this table is defined in 540_workflows_service_lookup.sql,
-- beside the packed counters (530), service bits and entry key it reads.
