-- One typed row per classified failure (a span carrying faultline.class), filled by a materialized
-- view from otel_traces so that any writer (our collector or the contrib exporter) feeds it.
-- Sorted by class and source first: the dashboard filters and groups on them, then narrows by
-- service and time (partitions already prune by day).
CREATE TABLE IF NOT EXISTS failures (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    SpanName LowCardinality(String) CODEC(ZSTD(1)),
    SpanKind LowCardinality(String) CODEC(ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ParentSpanId String CODEC(ZSTD(1)),
    Duration UInt64 CODEC(T64, ZSTD(1)),
    class LowCardinality(String) CODEC(ZSTD(1)),
    source LowCardinality(String) CODEC(ZSTD(1)),
    code LowCardinality(String) CODEC(ZSTD(1)),
    message String CODEC(ZSTD(1)),
    retryable Bool,
    retry_after Nullable(Float64),
    correlation_id String CODEC(ZSTD(1)),
    raw String CODEC(ZSTD(3)),
    attempt UInt16,
    misrouted_retry Bool,
    -- true when the preload saw a failure below this span in its own process first (a server span
    -- that failed because a call inside it failed). Echoes across services are decided at read time
    -- by first_hand_failures (030), from the trace's parent/child links.
    propagated Bool DEFAULT false,
    -- What the failed call called (faultline_call_dependency, 006), computed once by the views below.
    dependency LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_correlation_id correlation_id TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (class, source, ServiceName, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

ALTER TABLE failures MODIFY SETTING non_replicated_deduplication_window = 1000;
ALTER TABLE failures ADD COLUMN IF NOT EXISTS propagated Bool DEFAULT false AFTER misrouted_retry;
-- Rows written before the column existed keep '' (failures has no attribute map to recompute it
-- from): panels by dependency count failures from the release that added it on.
ALTER TABLE failures ADD COLUMN IF NOT EXISTS dependency LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER propagated;
-- A span's and its parent's (trace, span) ids as the 64-bit hash first_hand_failures (030) looks
-- them up by, computed once on insert: hashing two strings of every failure in a range at each read
-- cost more than the rest of the first-hand rule. A part written before they existed computes them
-- on read, to the same values.
ALTER TABLE failures
    ADD COLUMN IF NOT EXISTS span_key UInt64 MATERIALIZED cityHash64(TraceId, SpanId),
    ADD COLUMN IF NOT EXISTS parent_key UInt64 MATERIALIZED cityHash64(TraceId, ParentSpanId);
-- The (trace, span) hash of the call whose request this failure happened in, as first_hand_failures
-- (030) looks callers up by: a SERVER span's parent (the caller's CLIENT span, when it has one), and
-- on any other span the preload's faultline.caller_span_id (the remote parent of its local root), so
-- a failure below a server span that did not fail still names the call it answers. 0 when neither
-- says. The id arrives in the ephemeral caller_span_id, which the views below write and no part
-- stores; a part written before it existed computes the SERVER case on read and 0 for the rest.
ALTER TABLE failures
    ADD COLUMN IF NOT EXISTS caller_span_id String EPHEMERAL '',
    ADD COLUMN IF NOT EXISTS caller_key UInt64 MATERIALIZED multiIf(
        caller_span_id != '', cityHash64(TraceId, caller_span_id),
        SpanKind = 'Server' AND ParentSpanId != '', cityHash64(TraceId, ParentSpanId),
        0);
-- How many failures this row stands for under trace sampling (faultline_span_weight, 005): 1/p of a
-- sampled span, 1 for a failure the preload kept whatever the sampler said. Every count of failures
-- sums it. Rows written before it existed are recomputed by the rebuild of this table (the views
-- below changed), so no row keeps a default that was never decided.
ALTER TABLE failures ADD COLUMN IF NOT EXISTS weight Float64 DEFAULT 1 AFTER dependency;
-- The agent tool call a failure belongs to (faultline_tool_name, _agent_name, _model_name, 007):
-- the tool call's own row names them, and a failure inside a tool (its HTTP request, its query)
-- names its tool through faultline.tool, so a failure is found by tool whether it is the
-- first-hand one or the tool's echo of it. '' when none. Rows written before they existed are
-- recomputed by the rebuild of this table (the views below changed).
ALTER TABLE failures
    ADD COLUMN IF NOT EXISTS tool LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER weight,
    ADD COLUMN IF NOT EXISTS agent LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER tool,
    ADD COLUMN IF NOT EXISTS model LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER agent;

-- Attribute values arrive stringified: booleans as 'true'/'false', numbers in decimal.
-- retry_after stays NULL unless it parses to a finite number; attempt defaults to 1.
-- Spans that are not calls of their own (faultline_call_role, 005) never become failure rows: a
-- transport request's envelope already informs its SDK operation's, and a successful checkout has
-- no failure to record. The _v3 view replaces the earlier ones (dropped here): the first release's
-- counted every classified span and numbered attempts only inside withRetry; _v2 did not store the
-- dependency. Since the counting rules became functions (005), a changed rule or SELECT keeps the
-- name: the migrator creates the view again and rebuilds this table from otel_traces (src/migrate/).
-- The source is faultline_source (005): the envelope's own, as on every other row of the span.
DROP VIEW IF EXISTS failures_mv;
DROP VIEW IF EXISTS failures_mv_v2;

CREATE MATERIALIZED VIEW IF NOT EXISTS failures_mv_v3 TO failures AS
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    TraceId,
    SpanId,
    ParentSpanId,
    Duration,
    SpanAttributes['faultline.class'] AS class,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.code'] AS code,
    SpanAttributes['faultline.message'] AS message,
    SpanAttributes['faultline.retryable'] = 'true' AS retryable,
    if(isFinite(assumeNotNull(toFloat64OrNull(SpanAttributes['faultline.retry_after']))),
       toFloat64OrNull(SpanAttributes['faultline.retry_after']), NULL) AS retry_after,
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    SpanAttributes['faultline.raw'] AS raw,
    faultline_final_attempt(SpanAttributes) AS attempt,
    SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted_retry,
    faultline_propagated(SpanAttributes) AS propagated,
    faultline_call_dependency(otel_traces.SpanKind, SpanAttributes) AS dependency,
    faultline_span_weight(TraceState, SpanAttributes) AS weight,
    faultline_tool_name(SpanAttributes) AS tool,
    faultline_agent_name(SpanAttributes) AS agent,
    faultline_model_name(SpanAttributes) AS model,
    SpanAttributes['faultline.caller_span_id'] AS caller_span_id
FROM otel_traces
WHERE SpanAttributes['faultline.class'] != ''
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = '';

-- An SDK operation the library retried internally (faultline.attempts = N) made N attempts on the
-- wire; attempts 1..N-1 failed (the library retries only after a failure) with the envelope the
-- preload put under faultline.previous_*. Each becomes a failure row of its own, numbered, so that
-- every failed attempt is counted once whatever the operation's final outcome. The _v2 view stores
-- the dependency; it replaces the first (dropped here).
DROP VIEW IF EXISTS failures_prior_attempts_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS failures_prior_attempts_mv_v2 TO failures AS
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    faultline_span_kind(otel_traces.SpanKind) AS SpanKind,
    TraceId,
    SpanId,
    ParentSpanId,
    toUInt64(0) AS Duration,
    SpanAttributes['faultline.previous_class'] AS class,
    faultline_source(SpanAttributes) AS source,
    SpanAttributes['faultline.previous_code'] AS code,
    SpanAttributes['faultline.previous_message'] AS message,
    true AS retryable,
    CAST(NULL AS Nullable(Float64)) AS retry_after,
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    '' AS raw,
    toUInt16(prior_attempt) AS attempt,
    false AS misrouted_retry,
    false AS propagated,
    faultline_call_dependency(otel_traces.SpanKind, SpanAttributes) AS dependency,
    faultline_span_weight(TraceState, SpanAttributes) AS weight,
    faultline_tool_name(SpanAttributes) AS tool,
    faultline_agent_name(SpanAttributes) AS agent,
    faultline_model_name(SpanAttributes) AS model,
    SpanAttributes['faultline.caller_span_id'] AS caller_span_id
FROM otel_traces
ARRAY JOIN range(1, toUInt32(faultline_sdk_attempts(SpanAttributes))) AS prior_attempt
WHERE SpanAttributes['faultline.previous_class'] != ''
  AND faultline_sdk_attempts(SpanAttributes) > 1
  AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = '';
