-- name: retries_misrouted
-- description: Misrouted retries (an identical repeat after a non-retryable envelope) by service and code: the calls and the time they wasted (from the retry_attempts table), each retry counted for what it stands for under trace sampling (weight).
SELECT
  ServiceName AS service,
  class,
  source,
  code,
  sum(weight) AS wasted_calls,
  sum(weight * Duration) AS wasted_ns,
  toUnixTimestamp(max(Timestamp)) AS last_seen,
  argMax(correlation_id, Timestamp) AS example_correlation_id
FROM retry_attempts
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND misrouted_retry
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service, class, source, code
ORDER BY wasted_calls DESC, service, code
LIMIT {limit:UInt32}
