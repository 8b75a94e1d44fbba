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
SETTINGS ttl_only_drop_parts = 1;

-- A table created before attempt_key existed gets it here; its older parts compute it on read.
ALTER TABLE retry_attempts ADD COLUMN IF NOT EXISTS attempt_key UInt64
    MATERIALIZED cityHash64(TraceId, ServiceName, SpanName);

CREATE MATERIALIZED VIEW IF NOT EXISTS retry_attempts_mv TO retry_attempts AS
WITH
    if(startsWith(otel_traces.SpanKind, 'SPAN_KIND_'), initcap(substring(otel_traces.SpanKind, 11)), otel_traces.SpanKind) AS kind,
    greatest(toUInt16OrZero(SpanAttributes['faultline.attempt']), 1) AS attempt_n,
    SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    kind AS SpanKind,
    TraceId,
    Duration,
    SpanAttributes['faultline.source'] AS source,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.code'] AS code,
    attempt_n AS attempt,
    misrouted AS misrouted_retry,
    SpanAttributes['faultline.correlation_id'] AS correlation_id
FROM otel_traces
WHERE (kind != 'Server' AND (SpanAttributes['faultline.class'] != '' OR attempt_n > 1)) OR misrouted;
