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
    calls SimpleAggregateFunction(sum, UInt64),
    -- Every failure, echoes included, as in calls_1m (the panel's first-hand counts come from 030).
    failures SimpleAggregateFunction(sum, UInt64),
    retries SimpleAggregateFunction(sum, UInt64),
    misrouted SimpleAggregateFunction(sum, UInt64),
    duration_ns_sum SimpleAggregateFunction(sum, UInt64),
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

-- calls_1m_mv_v2's rules (faultline_counted_call, faultline_source, faultline_failed, 005) and its
-- counting folded into one view: a span whose library retried internally (faultline.attempts = N)
-- is N calls, N - 1 of them failed, N - 1 retries (calls_1m_prior_attempts_mv counts the earlier
-- attempts the same way).
CREATE MATERIALIZED VIEW IF NOT EXISTS dependency_calls_1m_mv TO dependency_calls_1m AS
WITH
    faultline_sdk_attempts(SpanAttributes) AS sdk_attempts,
    if(sdk_attempts > 1, sdk_attempts - 1, 0) AS prior_attempts
SELECT
    toStartOfMinute(Timestamp) AS minute,
    ServiceName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    faultline_source(SpanAttributes) AS source,
    faultline_call_dependency(otel_traces.SpanKind, SpanAttributes) AS dependency,
    toUInt64(count() + sum(prior_attempts)) AS calls,
    toUInt64(countIf(faultline_failed(SpanAttributes, StatusCode)) + sum(prior_attempts)) AS failures,
    toUInt64(countIf(faultline_final_attempt(SpanAttributes) > 1)
        + sum(if(prior_attempts > 1, prior_attempts - 1, 0))) AS retries,
    toUInt64(countIf(SpanAttributes['faultline.misrouted_retry'] = 'true')) AS misrouted,
    toUInt64(sum(Duration)) AS duration_ns_sum,
    quantilesState(0.5, 0.95)(Duration) AS latency_ns
FROM otel_traces
WHERE faultline_counted_call(SpanName, otel_traces.SpanKind, SpanAttributes, StatusCode)
GROUP BY minute, ServiceName, SpanKind, source, dependency;
