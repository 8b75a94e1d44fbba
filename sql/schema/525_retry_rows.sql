-- Each retry of a range (a row of retry_attempts, 520, with attempt > 1) beside the class of the
-- failure it followed and the time it waited: one home for the rule, which retries_by_class sums
-- and retries_listed lists (sql/queries/dashboard), so a figure and the rows it opens agree.
--   after_class: the preload's faultline.previous_class on the retry; for older rows, the class of
--     the preceding row with the same trace, service and span name (attempt_key); 'after success'
--     when that row did not fail.
--   waited_ns: from the previous attempt's end to the retry's start (0 without a previous attempt).
--   SELECT * FROM retry_rows(from = '…', to = '…', service = '', source = '')
-- The two rules, as functions: retries_by_class applies them to retry_attempts itself, because
-- through this parameterized view it cost more, at any size, than reading the table itself (the
-- pages bench prints the panel beside its query of 6a861fe). sql/test/schema/retry-rows.test.ts
-- holds the panel and this view to the same rows.
CREATE OR REPLACE FUNCTION faultline_retry_after_class AS (previous_class, prev_class) ->
    multiIf(previous_class != '', previous_class, prev_class = '', 'after success', prev_class);
CREATE OR REPLACE FUNCTION faultline_retry_waited_ns AS (start_ns, prev_end_ns) ->
    if(prev_end_ns > 0, greatest(toInt64(start_ns) - prev_end_ns, 0), 0);
-- How far before a range its first retries' previous attempts are looked up, in seconds: a retry
-- early in the range follows an attempt made before it, whose class and end the retry's row needs
-- (without it a retry at 09:00:00.4 after a failure at 08:59:59.9 read 'after success', waited 0).
-- An hour is far beyond the preload's longest wait (maxDelayMs, 20 s by default: a longer
-- Retry-After gives up, instrumentation/src/policy/retry-decision.ts) and SDKs' backoffs; a retry
-- more than an hour after its previous attempt reads as one without a stored predecessor ('after
-- success', waited 0).
CREATE OR REPLACE FUNCTION faultline_retry_lookback_s AS () -> 3600;

CREATE OR REPLACE VIEW retry_rows AS
SELECT
  Timestamp,
  ServiceName,
  SpanName,
  TraceId,
  correlation_id,
  source,
  class,
  code,
  attempt,
  Duration,
  weight,
  faultline_retry_after_class(previous_class, prev_class) AS after_class,
  faultline_retry_waited_ns(start_ns, prev_end_ns) AS waited_ns
FROM (
  SELECT
    Timestamp,
    ServiceName,
    SpanName,
    TraceId,
    correlation_id,
    source,
    class,
    code,
    previous_class,
    attempt,
    Duration,
    weight,
    lagInFrame(class) OVER w AS prev_class,
    toUnixTimestamp64Nano(Timestamp) AS start_ns,
    lagInFrame(toInt64(toUnixTimestamp64Nano(Timestamp)) + toInt64(Duration)) OVER w AS prev_end_ns
  -- From the lookback before the range, so a retry early in it finds its previous attempt. The
  -- service is part of attempt_key, so filtering by it keeps every group whole; the source is not
  -- (an attempt may fail in one source and be retried through another), so it filters the retries
  -- after the lookup, not the rows the lookup reads.
  FROM retry_attempts
  WHERE Timestamp >= {from:DateTime} - toIntervalSecond(faultline_retry_lookback_s())
    AND Timestamp < {to:DateTime}
    AND SpanKind != 'Server'
    AND ({service:String} = '' OR ServiceName = {service:String})
    -- Only groups with a retry in range can yield a row: drop the rest before sorting (the
    -- service's groups only, as above: the key holds the service).
    AND attempt_key IN (
      SELECT attempt_key FROM retry_attempts
      WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime} AND attempt > 1
        AND ({service:String} = '' OR ServiceName = {service:String})
    )
  WINDOW w AS (PARTITION BY attempt_key ORDER BY Timestamp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
)
WHERE attempt > 1 AND start_ns >= toUInt64(toUnixTimestamp({from:DateTime})) * 1000000000
  AND ({source:String} = '' OR source = {source:String});
