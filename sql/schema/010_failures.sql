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
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_correlation_id correlation_id TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (class, source, ServiceName, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

ALTER TABLE failures MODIFY SETTING non_replicated_deduplication_window = 1000;

-- Attribute values arrive stringified: booleans as 'true'/'false', numbers in decimal.
-- retry_after stays NULL unless it parses to a finite number; attempt defaults to 1.
CREATE MATERIALIZED VIEW IF NOT EXISTS failures_mv TO failures AS
SELECT
    Timestamp,
    ServiceName,
    SpanName,
    -- Older exporter releases write 'SPAN_KIND_CLIENT'; store the 'Client' form the dashboard reads.
    if(startsWith(otel_traces.SpanKind, 'SPAN_KIND_'), initcap(substring(otel_traces.SpanKind, 11)), otel_traces.SpanKind) AS SpanKind,
    TraceId,
    SpanId,
    ParentSpanId,
    Duration,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.source'] AS source,
    SpanAttributes['faultline.code'] AS code,
    SpanAttributes['faultline.message'] AS message,
    SpanAttributes['faultline.retryable'] = 'true' AS retryable,
    if(isFinite(assumeNotNull(toFloat64OrNull(SpanAttributes['faultline.retry_after']))),
       toFloat64OrNull(SpanAttributes['faultline.retry_after']), NULL) AS retry_after,
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    SpanAttributes['faultline.raw'] AS raw,
    greatest(toUInt16OrZero(SpanAttributes['faultline.attempt']), 1) AS attempt,
    SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted_retry
FROM otel_traces
WHERE SpanAttributes['faultline.class'] != '';
