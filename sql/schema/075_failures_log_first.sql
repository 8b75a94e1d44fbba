-- A span whose log record is already stored when the span arrives (issue 33): the record came
-- first, and to another collector instance, or to this one before a restart, so no collector's
-- memory joined them (collector/src/logs-ingest/span-log-join.ts joins a pair that meets in one
-- process). The span then arrives as the collector's guess (070: classified by the collector, no
-- exception event, no record's exception), and failures_mv_v3 (010) writes that guess. This view,
-- on the same insert, finds the span's classified record in otel_logs and replaces the guess as
-- failures_log_informed_mv (070) does when the record comes second: the guess again with its
-- weight negated, and the span's row with the record's class, code, message, retryable,
-- retry_after and raw. So the join holds whichever instance got which half, resolved by the store
-- every instance writes to, and each failure is counted once. The class is the record's as its
-- collector read it alone, never having seen the span's attributes: a record that names its
-- exception's class but not its system (Python's UniqueViolation) keeps that reading (permanent),
-- where one collector seeing both would say 23505 (validation).
--
-- Exactly once: the two views see each other's rows only once inserted. When the record is
-- stored before the span's insert, this view replaces the guess, and 070's view, reading the
-- span's rows (three, not one) afterwards, leaves them; when the record's insert runs after the
-- span's, this view found no record and 070's replaces the guess. Both fire only if each insert
-- reads the other's rows and not what the other's view wrote: the span's guess and its
-- replacement are two parts of one insert, committed together at its end, so that window is the
-- time between two part commits of one INSERT.
--
-- The columns below are failures_mv_v3's, kept in step with it: the negated copy must match the
-- guess in every column but the envelope and the weight (sql/test/schema/otel-logs.test.ts groups
-- the three rows by every other column and finds one group). A rebuild of failures (the migrator)
-- does not replay this view: it replays 070's over every stored record after the spans, which
-- joins every pair once whatever order it arrived in.
CREATE MATERIALIZED VIEW IF NOT EXISTS failures_log_first_mv TO failures AS
SELECT
    * EXCEPT (log_class, log_code, log_message, log_retryable, log_retry_after, log_raw, sign)
    REPLACE (
        if(sign < 0, class, log_class) AS class,
        if(sign < 0, code, log_code) AS code,
        if(sign < 0, message, log_message) AS message,
        if(sign < 0, retryable, log_retryable) AS retryable,
        if(sign < 0, retry_after, log_retry_after) AS retry_after,
        if(sign < 0, raw, log_raw) AS raw,
        sign * weight AS weight)
FROM (
SELECT *, sign
FROM (
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
      AND faultline_call_role(SpanName, SpanAttributes, StatusCode) = ''
      -- A guess (070): the collector classified it with no exception of its own or from a record.
      AND SpanAttributes['faultline.classified_by'] = 'collector'
      AND SpanAttributes['faultline.exception_from'] = ''
      AND NOT has(Events.Name, 'exception')
) AS f
INNER JOIN (
    -- The first classified record of each guessed span of the block (a subquery naming
    -- otel_traces reads the inserted block), near the block's times so a day's partitions are read.
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
    WHERE LogAttributes['faultline.class'] != '' AND SpanId != ''
      AND TraceId IN (
          SELECT TraceId FROM otel_traces
          WHERE SpanAttributes['faultline.classified_by'] = 'collector'
            AND SpanAttributes['faultline.exception_from'] = ''
            AND NOT has(Events.Name, 'exception'))
      AND Timestamp >= (SELECT min(Timestamp) FROM otel_traces) - INTERVAL 1 HOUR
      AND Timestamp < (SELECT max(Timestamp) FROM otel_traces) + INTERVAL 1 DAY
    ORDER BY Timestamp
    LIMIT 1 BY TraceId, SpanId
) AS l USING (TraceId, SpanId)
ARRAY JOIN [-1, 1] AS sign
);
