-- Exact counts of every logical call and failure, counted in process by the preload whatever the
-- trace sampler kept, and exported as OTLP delta sums (faultline.calls, faultline.failures: the
-- contract is instrumentation/src/envelope/count-metrics.ts) to the collector's /v1/metrics and
-- gRPC MetricsService, which writes one row per data point here. Where a service has rows for a
-- range, budgets, burn and alerts take its calls from here and the spans only explain them.
-- Reads must use sum() … GROUP BY: rows merge lazily.
CREATE TABLE IF NOT EXISTS call_counts_1m (
    minute DateTime CODEC(Delta(4), ZSTD(1)),
    ServiceName LowCardinality(String),
    SpanKind LowCardinality(String),
    source LowCardinality(String),
    dependency LowCardinality(String),
    class LowCardinality(String),
    code LowCardinality(String),
    entry Bool,
    propagated Bool,
    calls Float64,
    failures Float64
) ENGINE = SummingMergeTree((calls, failures))
PARTITION BY toYYYYMM(minute)
ORDER BY (ServiceName, SpanKind, source, dependency, class, code, entry, propagated, minute)
SETTINGS ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;
