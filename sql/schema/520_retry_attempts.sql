-- Dashboard (H11): the spans the Retries page needs, without the SpanAttributes map: every outbound
-- call that failed with an envelope or is a retry (attempt > 1), and every misrouted retry. Both
-- retry panels read this instead of otel_traces; at 10M spans that is ~1/8 of the rows and no Map.
-- A retry's previous attempt is the preceding row of the same trace, service and span name: retries
-- follow failures, so that attempt is here too (a successful attempt before a retry is not).
CREATE TABLE IF NOT EXISTS retry_attempts (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanName LowCardinality(String),
    SpanKind LowCardinality(String),
    TraceId String CODEC(ZSTD(1)),
    Duration UInt64 CODEC(T64, ZSTD(1)),
    source LowCardinality(String),
    class LowCardinality(String),
    code LowCardinality(String),
    attempt UInt16,
    misrouted_retry Bool,
    correlation_id String CODEC(ZSTD(1)),
    -- One number per (trace, service, span name), the group in which a retry's previous attempt is
    -- looked up: partitioning a window by it never reads the 32-character trace ids. A 64-bit hash
    -- stands for the group as workflow_key does for a correlation id.
    attempt_key UInt64 MATERIALIZED cityHash64(TraceId, ServiceName, SpanName)
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (ServiceName, Timestamp)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A replayed write-ahead segment arrives again under its deduplication token: the window makes
-- this table drop the repeat as otel_traces does (the writer sets
-- deduplicate_blocks_in_dependent_materialized_views), so it is counted once here too.
ALTER TABLE retry_attempts MODIFY SETTING non_replicated_deduplication_window = 1000;

-- A table created before attempt_key existed gets it here; its older parts compute it on read.
ALTER TABLE retry_attempts ADD COLUMN IF NOT EXISTS attempt_key UInt64
    MATERIALIZED cityHash64(TraceId, ServiceName, SpanName);

-- The class of the failed attempt a retry followed, as the preload recorded it on the retry
-- (faultline.previous_class): the operation's own history, not a guess from neighbouring rows.
ALTER TABLE retry_attempts ADD COLUMN IF NOT EXISTS previous_class LowCardinality(String) AFTER code;

-- How many attempts this row stands for under trace sampling (faultline_span_weight, 005); the
-- Retries page sums it. The views below changed with it, so the migrator rebuilds the rows.
ALTER TABLE retry_attempts ADD COLUMN IF NOT EXISTS weight Float64 DEFAULT 1 AFTER correlation_id;

-- Attempts are numbered by faultline_final_attempt (005): identical repeats of a failed call, an
-- SDK's own retries, http.request.resend_count. Transport requests and checkouts are not calls.
-- The source is faultline_source (005), so a retry that succeeded is filed where its failures are.
-- The _v2 view replaces the first release's (dropped here), which knew only withRetry's attempts.
DROP VIEW IF EXISTS retry_attempts_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS retry_attempts_mv_v2 TO retry_attempts AS
WITH
    faultline_span_kind(otel_traces.SpanKind) AS kind,
    faultline_final_attempt(SpanAttributes) AS attempt_n,
    SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    kind AS SpanKind,
    TraceId,
    Duration,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.code'] AS code,
    SpanAttributes['faultline.previous_class'] AS previous_class,
    attempt_n AS attempt,
    misrouted AS misrouted_retry,
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    faultline_span_weight(TraceState, SpanAttributes) AS weight
FROM otel_traces
WHERE ((kind != 'Server' AND (SpanAttributes['faultline.class'] != '' OR attempt_n > 1)) OR misrouted)
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = '';

-- An SDK's internal attempts 2..N-1 (faultline.attempts = N): retries that failed again with the
-- faultline.previous_* envelope, inside the operation's span (its row above is attempt N).
CREATE MATERIALIZED VIEW IF NOT EXISTS retry_attempts_prior_mv TO retry_attempts AS
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    TraceId,
    toUInt64(0) AS Duration,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.previous_class'] AS class,
    SpanAttributes['faultline.previous_code'] AS code,
    SpanAttributes['faultline.previous_class'] AS previous_class,
    toUInt16(prior_attempt) AS attempt,
    false AS misrouted_retry,
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    faultline_span_weight(TraceState, SpanAttributes) AS weight
FROM otel_traces
ARRAY JOIN range(2, toUInt32(faultline_sdk_attempts(SpanAttributes))) AS prior_attempt
WHERE SpanAttributes['faultline.previous_class'] != ''
  AND faultline_sdk_attempts(SpanAttributes) > 2
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = '';
