-- name: misrouted_retries
-- description: Repeats of an identical call after a non-retryable failure, grouped by where they happen: the callers whose retry policy ignores the envelope. Empty service = all services.
SELECT
    ServiceName AS service,
    SpanName AS operation,
    source,
    class,
    code,
    sum(weight) AS misrouted,
    max(attempt) AS max_attempt,
    any(correlation_id) AS example_correlation_id,
    any(TraceId) AS example_trace_id,
    max(Timestamp) AS last_seen
FROM failures
WHERE Timestamp >= {from:DateTime64(3)} AND Timestamp < {to:DateTime64(3)}
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND misrouted_retry
GROUP BY service, operation, source, class, code
ORDER BY misrouted DESC, service, operation
