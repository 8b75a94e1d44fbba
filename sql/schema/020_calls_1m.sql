-- Minute rollup with the denominators a reliability budget needs: every CLIENT and SERVER span and
-- every span the preload tagged with faultline.source, successes included. SummingMergeTree merges
-- rows lazily, so reads must use sum() … GROUP BY.
CREATE TABLE IF NOT EXISTS calls_1m (
    minute DateTime CODEC(Delta(4), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanKind LowCardinality(String),
    source LowCardinality(String),
    class LowCardinality(String),
    code LowCardinality(String),
    calls Float64,
    failures Float64,
    retryable_failures Float64,
    retries Float64,
    misrouted Float64,
    duration_ns_sum Float64
) ENGINE = SummingMergeTree((calls, failures, retryable_failures, retries, misrouted, duration_ns_sum))
PARTITION BY toYYYYMM(minute)
ORDER BY (ServiceName, source, class, code, SpanKind, minute)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

ALTER TABLE calls_1m MODIFY SETTING non_replicated_deduplication_window = 1000;
-- Counts are sums of span weights (faultline_span_weight, 005): under trace sampling a stored span
-- stands for 1/p calls. The first releases counted rows (UInt64); the views below changed with it,
-- so the migrator rebuilds the table's rows under the weighted rule.
ALTER TABLE calls_1m
    MODIFY COLUMN calls Float64,
    MODIFY COLUMN failures Float64,
    MODIFY COLUMN retryable_failures Float64,
    MODIFY COLUMN retries Float64,
    MODIFY COLUMN misrouted Float64,
    MODIFY COLUMN duration_ns_sum Float64;

-- Each rule is a function of 005: which spans count (faultline_counted_call: CLIENT and SERVER spans
-- and spans the preload tagged with a source, never a transport request or a successful checkout),
-- the source (faultline_source: the preload's faultline.source, else what the semantic-convention
-- attributes imply, as the TypeScript rule does, so spans of other instrumentations count under the
-- source their failures are filed under), a failure (faultline_failed: a classified envelope, or an
-- Error status on a span nobody classified; class '' then marks it as unclassified). Every failure
-- is counted here, echoes included: this rollup is the denominator (calls); first-hand failures are
-- counted from first_hand_failures (030). The _v2 view replaces the first release's (dropped here).
DROP VIEW IF EXISTS calls_1m_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS calls_1m_mv_v2 TO calls_1m AS
SELECT
    toStartOfMinute(Timestamp) AS minute,
    ServiceName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.code'] AS code,
    faultline_span_weight(TraceState, SpanAttributes) AS calls,
    calls * faultline_failed(SpanAttributes, StatusCode) AS failures,
    calls * (class != '' AND SpanAttributes['faultline.retryable'] = 'true') AS retryable_failures,
    calls * (faultline_final_attempt(SpanAttributes) > 1) AS retries,
    calls * (SpanAttributes['faultline.misrouted_retry'] = 'true') AS misrouted,
    calls * Duration AS duration_ns_sum
FROM otel_traces
WHERE faultline_counted_call(SpanName, otel_traces.SpanKind, SpanAttributes, StatusCode);

-- The earlier attempts of an operation its library retried internally (see failures_prior_attempts_mv):
-- N-1 calls that failed with the faultline.previous_* envelope (class '' when the preload did not
-- see it: unclassified), of which attempts 2..N-1 are retries.
CREATE MATERIALIZED VIEW IF NOT EXISTS calls_1m_prior_attempts_mv TO calls_1m AS
WITH faultline_sdk_attempts(SpanAttributes) AS attempts
SELECT
    toStartOfMinute(Timestamp) AS minute,
    ServiceName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.previous_class'] AS class,
    SpanAttributes['faultline.previous_code'] AS code,
    faultline_span_weight(TraceState, SpanAttributes) * (attempts - 1) AS calls,
    calls AS failures,
    calls AS retryable_failures,
    faultline_span_weight(TraceState, SpanAttributes) * (attempts - 2) AS retries,
    0.0 AS misrouted,
    0.0 AS duration_ns_sum
FROM otel_traces
WHERE attempts > 1
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = '';
