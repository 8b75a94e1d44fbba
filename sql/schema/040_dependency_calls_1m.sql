-- Dashboard (issue 13): per-minute rollup of calls by service × dependency, so the Dependencies page
-- and the service map read minutes instead of every client span of the range. The same eligible
-- calls as calls_1m (020), with the dependency each names (faultline_call_dependency, 006) in place
-- of class and code: first-hand failures by class are decided at read time (first_hand_failures,
-- 030) over failures.dependency, and this table gives their denominator and the edge's latency.
-- Reads must aggregate (sum / quantilesMerge … GROUP BY): rows merge lazily.
CREATE TABLE IF NOT EXISTS dependency_calls_1m (
    minute DateTime CODEC(Delta(4), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanKind LowCardinality(String),
    source LowCardinality(String),
    dependency LowCardinality(String),
    calls SimpleAggregateFunction(sum, Float64),
    -- Every failure, echoes included, as in calls_1m (the panel's first-hand counts come from 030).
    failures SimpleAggregateFunction(sum, Float64),
    retries SimpleAggregateFunction(sum, Float64),
    misrouted SimpleAggregateFunction(sum, Float64),
    duration_ns_sum SimpleAggregateFunction(sum, Float64),
    -- One duration per span (an SDK's internal attempts have none of their own): p50 and p95.
    latency_ns AggregateFunction(quantiles(0.5, 0.95), UInt64)
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(minute)
ORDER BY (ServiceName, dependency, source, SpanKind, minute)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A replayed write-ahead segment arrives again under its deduplication token: the window makes
-- this table drop the repeat as otel_traces does (the writer sets
-- deduplicate_blocks_in_dependent_materialized_views), so it is counted once here too.
ALTER TABLE dependency_calls_1m MODIFY SETTING non_replicated_deduplication_window = 1000;

-- Counts are sums of span weights (faultline_span_weight, 005), as in calls_1m. Beside them, what
-- the pages need to say how far to trust an estimate: calls_variance (the weighted calls' variance,
-- faultline_weight_variance), unmarked_calls (spans with no sampling mark in their tracestate:
-- counted as 1, which is right only if nothing dropped their siblings) and invalid_marks (a th that
-- is not the specification's, counted as 1 too). The migrator rebuilds the rows under these views.
ALTER TABLE dependency_calls_1m
    MODIFY COLUMN calls SimpleAggregateFunction(sum, Float64),
    MODIFY COLUMN failures SimpleAggregateFunction(sum, Float64),
    MODIFY COLUMN retries SimpleAggregateFunction(sum, Float64),
    MODIFY COLUMN misrouted SimpleAggregateFunction(sum, Float64),
    MODIFY COLUMN duration_ns_sum SimpleAggregateFunction(sum, Float64),
    ADD COLUMN IF NOT EXISTS calls_variance SimpleAggregateFunction(sum, Float64),
    ADD COLUMN IF NOT EXISTS unmarked_calls SimpleAggregateFunction(sum, UInt64),
    ADD COLUMN IF NOT EXISTS invalid_marks SimpleAggregateFunction(sum, UInt64);

-- The edge's latency quantiles weighted as its calls are: the preload keeps every failed call and
-- 1/p of the others, so the stored spans over-represent the failed ones, and an unweighted p50 reads
-- the failures' latency. A t-digest takes integer weights: each span counts 1000 × its weight (a
-- path-only span, weight 0, none). Beside latency_ns, not instead: for an edge none of whose spans
-- was sampled (calls_variance 0, every weight 1) the reservoir is exact where the digest is not
-- (p95 of 10…60 ms: 57.5 against 60), so the page reads the digest only where weights differ.
ALTER TABLE dependency_calls_1m
    ADD COLUMN IF NOT EXISTS latency_weighted_ns AggregateFunction(quantilesTDigestWeighted(0.5, 0.95), UInt64, UInt64);

-- calls_1m_mv_v2's rules (faultline_counted_call, faultline_source, faultline_failed, 005) and its
-- counting folded into one view: a span whose library retried internally (faultline.attempts = N)
-- is N calls, N - 1 of them failed, N - 1 retries (calls_1m_prior_attempts_mv counts the earlier
-- attempts the same way).
CREATE MATERIALIZED VIEW IF NOT EXISTS dependency_calls_1m_mv TO dependency_calls_1m AS
WITH
    faultline_sdk_attempts(SpanAttributes) AS sdk_attempts,
    if(sdk_attempts > 1, sdk_attempts - 1, 0) AS prior_attempts,
    faultline_span_weight(TraceState, SpanAttributes) AS weight
SELECT
    toStartOfMinute(Timestamp) AS minute,
    ServiceName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    faultline_source(SpanAttributes) AS source,
    faultline_call_dependency(otel_traces.SpanKind, SpanAttributes) AS dependency,
    sum(weight * (1 + prior_attempts)) AS calls,
    sum(weight * (faultline_failed(SpanAttributes, StatusCode) + prior_attempts)) AS failures,
    sum(weight * ((faultline_final_attempt(SpanAttributes) > 1) + if(prior_attempts > 1, prior_attempts - 1, 0))) AS retries,
    sumIf(weight, SpanAttributes['faultline.misrouted_retry'] = 'true') AS misrouted,
    sum(weight * Duration) AS duration_ns_sum,
    quantilesState(0.5, 0.95)(Duration) AS latency_ns,
    -- The digest takes whole weights: thousandths of a request, each weight at most
    -- faultline_weight_cap (005; 2^56, the largest, times 1000 is past UInt64).
    quantilesTDigestWeightedState(0.5, 0.95)(Duration, toUInt64(round(least(weight, faultline_weight_cap()) * 1000))) AS latency_weighted_ns,
    sum(faultline_weight_variance(weight) * (1 + prior_attempts)) AS calls_variance,
    toUInt64(countIf(faultline_sample_mark(TraceState) = 'none')) AS unmarked_calls,
    toUInt64(countIf(faultline_sample_mark(TraceState) = 'invalid')) AS invalid_marks
FROM otel_traces
WHERE faultline_counted_call(SpanName, otel_traces.SpanKind, SpanAttributes, StatusCode)
GROUP BY minute, ServiceName, SpanKind, source, dependency;
