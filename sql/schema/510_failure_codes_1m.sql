-- Dashboard (H5): per-minute rollup of failures by code, so the overview's "top codes" panel (count,
-- retryable, last seen, an example message) reads thousands of rows instead of every failure.
-- Fed from the failures table (itself fed by failures_mv), so any writer of otel_traces fills it.
-- Reads must aggregate (sum / max / anyLast … GROUP BY): rows merge lazily.
CREATE TABLE IF NOT EXISTS failure_codes_1m (
    minute DateTime CODEC(Delta(4), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanKind LowCardinality(String),
    class LowCardinality(String),
    source LowCardinality(String),
    code LowCardinality(String),
    failures SimpleAggregateFunction(sum, Float64),
    retryable_failures SimpleAggregateFunction(sum, Float64),
    last_seen SimpleAggregateFunction(max, DateTime64(9)),
    example_message SimpleAggregateFunction(anyLast, String)
) ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(minute)
ORDER BY (ServiceName, source, class, code, SpanKind, minute)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A replayed write-ahead segment arrives again under its deduplication token: the window makes
-- this table drop the repeat as otel_traces does (the writer sets
-- deduplicate_blocks_in_dependent_materialized_views), so it is counted once here too.
ALTER TABLE failure_codes_1m MODIFY SETTING non_replicated_deduplication_window = 1000;
-- Failures are sums of the rows' weights (failures.weight): the first release counted rows.
ALTER TABLE failure_codes_1m
    MODIFY COLUMN failures SimpleAggregateFunction(sum, Float64),
    MODIFY COLUMN retryable_failures SimpleAggregateFunction(sum, Float64);

CREATE MATERIALIZED VIEW IF NOT EXISTS failure_codes_1m_mv TO failure_codes_1m AS
SELECT
    toStartOfMinute(Timestamp) AS minute,
    ServiceName,
    SpanKind,
    class,
    source,
    code,
    sum(weight) AS failures,
    sumIf(weight, retryable) AS retryable_failures,
    max(Timestamp) AS last_seen,
    anyLast(message) AS example_message
FROM failures
GROUP BY minute, ServiceName, SpanKind, class, source, code;
