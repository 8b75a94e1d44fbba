-- Log records (issue 33): OTLP logs in, stored as the OpenTelemetry Collector contrib ClickHouse
-- exporter stores them (exporter/clickhouseexporter/internal/sqltemplates/logs_table.sql), column
-- for column, so that exporter can also write this table; sql/compat holds its DDL and INSERT, and
-- a test runs the same INSERT into both. TTL as otel_traces (src/ddl/ttl-days.ts).
CREATE TABLE IF NOT EXISTS otel_logs (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    TimestampTime DateTime DEFAULT toDateTime(Timestamp),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    TraceFlags UInt8,
    SeverityText LowCardinality(String) CODEC(ZSTD(1)),
    SeverityNumber UInt8,
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    Body String CODEC(ZSTD(1)),
    ResourceSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    ScopeSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
    ScopeName String CODEC(ZSTD(1)),
    ScopeVersion LowCardinality(String) CODEC(ZSTD(1)),
    ScopeAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    LogAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
    EventName String CODEC(ZSTD(1)),
    INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
    INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_res_attr_value mapValues(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_key mapKeys(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_scope_attr_value mapValues(ScopeAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_log_attr_value mapValues(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_body Body TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 8
) ENGINE = MergeTree()
PARTITION BY toDate(TimestampTime)
PRIMARY KEY (ServiceName, TimestampTime)
ORDER BY (ServiceName, TimestampTime, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

-- A replayed write-ahead segment of log records arrives again under its token (as for otel_traces).
ALTER TABLE otel_logs MODIFY SETTING non_replicated_deduplication_window = 1000;

-- Failures that arrive as log records. The collector classifies a record that shows a failure (an
-- exception.* attribute, or severity ERROR or above with an error shape) with the classifiers it
-- uses for stock spans and writes the envelope into LogAttributes (faultline.class …), as it does
-- into a span's attributes. Each failure is counted once, by one of two rules:
--
-- 1. A record with no span (no span id: a worker with no span around it, a caught error logged
--    outside one) is a failure of its own: failures_from_logs_mv writes its row. It names no span,
--    so its row gets one of its own, 'log:' and a hash of the record, which no span id can equal
--    (a shared empty id would make every such row each other's parent or child to the first-hand
--    rule, 030). SpanName is what logged it (the event name, else the logger: the scope); kind
--    CLIENT when the record names a dependency (it counts with the outbound calls), else INTERNAL.
--
-- 2. A record with a span id explains that span: it is never a row of its own (the span is the one
--    failure), and it informs the span's classification with the exception type and message its
--    exception event would have carried. Whichever arrives first:
--    - the record first: the collector remembers it, and classifies the span with it when the span
--      arrives (collector/src/logs-ingest/span-log-join.ts), marking the span
--      faultline.exception_from = 'log', so the span's row is right from the start and nothing
--      here replaces it;
--    - the span first: its row holds the collector's guess (a bare ERROR status reads `permanent`).
--      When the record is inserted, failures_log_informed_mv replaces the guess by two rows of the
--      same span, every other column copied as it is: the guess again with its weight negated, and
--      the span's row with the record's class, code, message, retryable, retry_after and raw, with
--      the span's weight. Every count of
--      failures sums `weight` (010), and so does every rollup fed from failures (failure_codes_1m),
--      so the span then counts once, under the record's class, everywhere; the first-hand rule
--      (030) reads ids only, which the three rows share. A guess is a span the collector classified
--      (faultline.classified_by) with no exception event of its own and no record's exception
--      (faultline.exception_from), whose only row is that guess: a span the preload classified,
--      one with its own event, one a record informed or one already replaced is left alone; of
--      several records of one span in one insert, the first is taken. When the collector saw the
--      span, it classifies the record with the span's attributes, so the record carries the
--      envelope the span would have got, and writes the record only once the span is inserted.
--
-- Why replace at write time rather than classify at read time: every panel, alert and rollup reads
-- failures (and first_hand_failures over it); a read-time join with otel_logs would have to be in
-- each of them. Why not a ReplacingMergeTree keyed by span: failures holds several rows per span by
-- design (an SDK's prior attempts, 010) and its rollups are fed on insert, before any merge.
-- What it costs: a listing of a replaced span's failure rows shows three (sum weights, or keep
-- HAVING sum(weight) != 0, as every count here does); the span in otel_traces keeps the attributes
-- it was classified with, so what is fed from otel_traces rather than failures (workflows_rollup,
-- retry_attempts) keeps the guess.
-- A record stored first at another collector (or before a restart) than its span: no memory joins
-- them, and failures_log_first_mv (075) replaces the span's guess on the span's insert, from the
-- stored record (classified alone, without the span's attributes). Known gaps: a record of a span
-- that succeeded, or whose span never arrives (sampled out), counts nowhere; on a cluster, records
-- with no trace id all shard to one shard (otel_logs is placed by trace like every table with a
-- TraceId).
CREATE MATERIALIZED VIEW IF NOT EXISTS failures_from_logs_mv TO failures AS
SELECT
    Timestamp,
    ServiceName,
    if(EventName != '', EventName, ScopeName) AS SpanName,
    if(faultline_dependency(LogAttributes) != '', 'Client', 'Internal') AS SpanKind,
    TraceId,
    concat('log:', lower(hex(cityHash64(Timestamp, ServiceName, ScopeName, Body, LogAttributes)))) AS SpanId,
    '' AS ParentSpanId,
    toUInt64(0) AS Duration,
    LogAttributes['faultline.class'] AS class,
    faultline_source(LogAttributes) AS source,
    LogAttributes['faultline.code'] AS code,
    LogAttributes['faultline.message'] AS message,
    LogAttributes['faultline.retryable'] = 'true' AS retryable,
    if(isFinite(assumeNotNull(toFloat64OrNull(LogAttributes['faultline.retry_after']))),
       toFloat64OrNull(LogAttributes['faultline.retry_after']), NULL) AS retry_after,
    LogAttributes['faultline.correlation_id'] AS correlation_id,
    LogAttributes['faultline.raw'] AS raw,
    faultline_final_attempt(LogAttributes) AS attempt,
    false AS misrouted_retry,
    faultline_propagated(LogAttributes) AS propagated,
    faultline_dependency(LogAttributes) AS dependency,
    toFloat64(1) AS weight,
    '' AS caller_span_id
FROM otel_logs
WHERE LogAttributes['faultline.class'] != '' AND otel_logs.SpanId = '';

CREATE MATERIALIZED VIEW IF NOT EXISTS failures_log_informed_mv TO failures AS
SELECT
    -- Every column of the span's row as it is (its dimensions, whatever failures holds), but the
    -- envelope the record gives and the weight: the negated copy cancels the guess, the other
    -- carries the record's envelope.
    * EXCEPT (log_class, log_code, log_message, log_retryable, log_retry_after, log_raw, sign)
    REPLACE (
        if(sign < 0, class, log_class) AS class,
        if(sign < 0, code, log_code) AS code,
        if(sign < 0, message, log_message) AS message,
        if(sign < 0, retryable, log_retryable) AS retryable,
        if(sign < 0, retry_after, log_retry_after) AS retry_after,
        if(sign < 0, raw, log_raw) AS raw,
        sign * weight AS weight),
    '' AS caller_span_id
FROM (
    SELECT *, sign
    FROM (
        SELECT
            TraceId,
            SpanId,
            LogAttributes['faultline.class'] AS log_class,
            LogAttributes['faultline.code'] AS log_code,
            LogAttributes['faultline.message'] AS log_message,
            LogAttributes['faultline.retryable'] = 'true' AS log_retryable,
            if(isFinite(assumeNotNull(toFloat64OrNull(LogAttributes['faultline.retry_after']))),
               toFloat64OrNull(LogAttributes['faultline.retry_after']), NULL) AS log_retry_after,
            LogAttributes['faultline.raw'] AS log_raw
        FROM otel_logs
        WHERE LogAttributes['faultline.class'] != '' AND SpanId != '' AND TraceId != ''
        ORDER BY Timestamp
        LIMIT 1 BY TraceId, SpanId
    ) AS l
    INNER JOIN (
        -- The failure rows of the records' spans that are guesses and nothing else (subqueries
        -- that name otel_logs read the inserted block), near the block's times so a day's
        -- partitions are read.
        SELECT * EXCEPT (rows_of_span)
        FROM (
            SELECT *, count() OVER (PARTITION BY TraceId, SpanId) AS rows_of_span
            FROM failures
            WHERE TraceId IN (SELECT TraceId FROM otel_logs WHERE SpanId != '' AND LogAttributes['faultline.class'] != '')
              AND Timestamp >= (SELECT min(Timestamp) FROM otel_logs) - INTERVAL 1 DAY
              AND Timestamp < (SELECT max(Timestamp) FROM otel_logs) + INTERVAL 1 HOUR
        )
        WHERE rows_of_span = 1
          AND (TraceId, SpanId) IN (
              SELECT TraceId, SpanId
              FROM otel_traces
              WHERE TraceId IN (SELECT TraceId FROM otel_logs WHERE SpanId != '' AND LogAttributes['faultline.class'] != '')
                AND Timestamp >= (SELECT min(Timestamp) FROM otel_logs) - INTERVAL 1 DAY
                AND Timestamp < (SELECT max(Timestamp) FROM otel_logs) + INTERVAL 1 HOUR
                AND SpanAttributes['faultline.classified_by'] = 'collector'
                AND SpanAttributes['faultline.exception_from'] = ''
                AND NOT has(Events.Name, 'exception'))
    ) AS f USING (TraceId, SpanId)
    ARRAY JOIN [-1, 1] AS sign
);
