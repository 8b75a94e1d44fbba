-- name: retries_by_class
-- description: Retries grouped by the class of the failure that triggered them (after_class of retry_rows, 525, applied here to retry_attempts directly (faultline_retry_after_class, faultline_retry_waited_ns): through the parameterized view the panel cost more (the pages bench prints it beside its query of 6a861fe); the preload's faultline.previous_class on the retry; for older rows, the preceding row of the same trace, service and span name): how many, how many succeeded, the highest attempt, and the time spent waiting between the failed call's end and the retry's start. Each retry counts for what it stands for under trace sampling (weight), its wait and duration too. retries_listed lists the retries of one figure.
SELECT
  after_class,
  sum(weight) AS retries,
  sumIf(weight, class = '') AS succeeded,
  max(attempt) AS max_attempt,
  sum(weight * waited_ns) AS wait_ns,
  sum(weight * Duration) AS retry_duration_ns
FROM (
  SELECT
    class,
    attempt,
    Duration,
    weight,
    faultline_retry_after_class(previous_class, prev_class) AS after_class,
    faultline_retry_waited_ns(start_ns, prev_end_ns) AS waited_ns
  FROM (
    -- retry_rows' window and filters (525), over the columns this panel sums.
    SELECT
      source,
      class,
      previous_class,
      attempt,
      Duration,
      weight,
      lagInFrame(class) OVER w AS prev_class,
      toUnixTimestamp64Nano(Timestamp) AS start_ns,
      lagInFrame(toInt64(toUnixTimestamp64Nano(Timestamp)) + toInt64(Duration)) OVER w AS prev_end_ns
    FROM retry_attempts
    WHERE Timestamp >= {from:DateTime} - toIntervalSecond(faultline_retry_lookback_s())
      AND Timestamp < {to:DateTime}
      AND SpanKind != 'Server'
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND attempt_key IN (
        SELECT attempt_key FROM retry_attempts
        WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime} AND attempt > 1
          AND ({service:String} = '' OR ServiceName = {service:String})
      )
    WINDOW w AS (PARTITION BY attempt_key ORDER BY Timestamp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
  )
  -- The retries of the range (start_ns: Timestamp, not carried through the window again).
  WHERE attempt > 1 AND start_ns >= toUInt64(toUnixTimestamp({from:DateTime})) * 1000000000
    AND ({source:String} = '' OR source = {source:String})
)
GROUP BY after_class
ORDER BY retries DESC, after_class
