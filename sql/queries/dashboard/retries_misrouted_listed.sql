-- name: retries_misrouted_listed
-- description: The misrouted retries (identical repeats after a non-retryable envelope) of one row of the Retries page's misrouted panel (retries_misrouted), one row each, newest first: service, class, source and code matched exactly ('' included: class '' is a repeat that succeeded). weight is what a retry stands for under trace sampling; total, the same on every row, is their sum: the wasted calls clicked.
SELECT
  Timestamp,
  ServiceName,
  SpanName,
  correlation_id,
  TraceId,
  attempt,
  class,
  source,
  code,
  Duration,
  weight,
  sum(weight) OVER () AS total
FROM retry_attempts
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND misrouted_retry
  AND ServiceName = {service:String}
  AND class = {class:String}
  AND source = {source:String}
  AND code = {code:String}
ORDER BY Timestamp DESC, correlation_id
