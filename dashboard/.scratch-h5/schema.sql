CREATE TABLE IF NOT EXISTS otel_traces (
  Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
  TraceId String CODEC(ZSTD(1)), SpanId String CODEC(ZSTD(1)), ParentSpanId String CODEC(ZSTD(1)), TraceState String CODEC(ZSTD(1)),
  SpanName LowCardinality(String) CODEC(ZSTD(1)), SpanKind LowCardinality(String) CODEC(ZSTD(1)), ServiceName LowCardinality(String) CODEC(ZSTD(1)),
  ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
  ScopeName String CODEC(ZSTD(1)), ScopeVersion String CODEC(ZSTD(1)),
  SpanAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
  Duration UInt64 CODEC(T64, ZSTD(1)),
  StatusCode LowCardinality(String) CODEC(ZSTD(1)), StatusMessage String CODEC(ZSTD(1)),
  Events Nested(Timestamp DateTime64(9), Name LowCardinality(String), Attributes Map(LowCardinality(String), String)) CODEC(ZSTD(1)),
  Links Nested(TraceId String, SpanId String, TraceState String, Attributes Map(LowCardinality(String), String)) CODEC(ZSTD(1)),
  INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1
) ENGINE = MergeTree PARTITION BY toDate(Timestamp) ORDER BY (ServiceName, SpanName, toDateTime(Timestamp));

CREATE TABLE IF NOT EXISTS failures (
  Timestamp DateTime64(9), ServiceName LowCardinality(String), SpanName LowCardinality(String), SpanKind LowCardinality(String),
  TraceId String, SpanId String, ParentSpanId String, Duration UInt64,
  class LowCardinality(String), source LowCardinality(String), code LowCardinality(String), message String,
  retryable Bool, retry_after Nullable(Float64), correlation_id String, raw String, attempt UInt16, misrouted_retry Bool
) ENGINE = MergeTree PARTITION BY toDate(Timestamp) ORDER BY (class, source, Timestamp);

CREATE MATERIALIZED VIEW IF NOT EXISTS failures_mv TO failures AS SELECT
  Timestamp, ServiceName, SpanName, SpanKind, TraceId, SpanId, ParentSpanId, Duration,
  SpanAttributes['faultline.class'] AS class, SpanAttributes['faultline.source'] AS source,
  SpanAttributes['faultline.code'] AS code, SpanAttributes['faultline.message'] AS message,
  SpanAttributes['faultline.retryable'] = 'true' AS retryable,
  toFloat64OrNull(SpanAttributes['faultline.retry_after']) AS retry_after,
  SpanAttributes['faultline.correlation_id'] AS correlation_id, SpanAttributes['faultline.raw'] AS raw,
  toUInt16(greatest(1, toUInt16OrZero(SpanAttributes['faultline.attempt']))) AS attempt,
  SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted_retry
FROM otel_traces WHERE SpanAttributes['faultline.class'] != '';

CREATE TABLE IF NOT EXISTS calls_1m (
  minute DateTime, ServiceName LowCardinality(String), SpanKind LowCardinality(String), source LowCardinality(String),
  class LowCardinality(String), code LowCardinality(String),
  calls UInt64, failures UInt64, retryable_failures UInt64, retries UInt64, misrouted UInt64, duration_ns_sum UInt64
) ENGINE = SummingMergeTree ORDER BY (minute, ServiceName, SpanKind, source, class, code);

CREATE MATERIALIZED VIEW IF NOT EXISTS calls_1m_mv TO calls_1m AS SELECT
  toStartOfMinute(Timestamp) AS minute, ServiceName, SpanKind,
  multiIf(SpanAttributes['faultline.source'] != '', SpanAttributes['faultline.source'],
    SpanAttributes['db.system.name'] != '' OR SpanAttributes['db.system'] != '', 'db',
    SpanAttributes['rpc.system'] = 'aws-api', 'sdk', SpanAttributes['rpc.system'] != '', 'rpc', 'http') AS source,
  SpanAttributes['faultline.class'] AS class, SpanAttributes['faultline.code'] AS code,
  count() AS calls, countIf(class != '') AS failures, countIf(SpanAttributes['faultline.retryable'] = 'true') AS retryable_failures,
  countIf(toUInt16OrZero(SpanAttributes['faultline.attempt']) > 1) AS retries,
  countIf(SpanAttributes['faultline.misrouted_retry'] = 'true') AS misrouted, sum(Duration) AS duration_ns_sum
FROM otel_traces WHERE SpanAttributes['faultline.source'] != '' OR SpanKind IN ('Client', 'Server')
GROUP BY minute, ServiceName, SpanKind, source, class, code;
