-- name: retries_by_class
-- description: Retries grouped by the class of the failure that triggered them (the preload's faultline.previous_class on the retry; for older rows, the preceding row of the group): how many, how many succeeded, the highest attempt, and the time spent waiting between the failed call's end and the retry's start. The previous attempt is the preceding failed or retried call with the same trace, service and span name (from the retry_attempts table, grouped by attempt_key, the 64-bit hash of those three, as workflows are by the hash of their correlation id).
SELECT
  multiIf(previous_class != '', previous_class, prev_class = '', 'after success', prev_class) AS after_class,
  sum(weight) AS retries,
  sumIf(weight, class = '') AS succeeded,
  max(attempt) AS max_attempt,
  sumIf(greatest(toInt64(start_ns) - prev_end_ns, 0), prev_end_ns > 0) AS wait_ns,
  sum(Duration) AS retry_duration_ns
FROM (
  SELECT
    attempt,
    class,
    previous_class,
    Duration,
    weight,
    lagInFrame(class) OVER w AS prev_class,
    toUnixTimestamp64Nano(Timestamp) AS start_ns,
    lagInFrame(toInt64(toUnixTimestamp64Nano(Timestamp)) + toInt64(Duration)) OVER w AS prev_end_ns
  FROM retry_attempts
  WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
    AND SpanKind != 'Server'
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    -- Only groups with a retry in range can yield a row: drop the rest before sorting.
    AND attempt_key IN (
      SELECT attempt_key FROM retry_attempts
      WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime} AND attempt > 1
    )
  WINDOW w AS (PARTITION BY attempt_key ORDER BY Timestamp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
)
WHERE attempt > 1
GROUP BY after_class
ORDER BY retries DESC, after_class
