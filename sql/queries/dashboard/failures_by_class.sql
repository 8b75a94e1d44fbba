-- name: failures_by_class
-- description: The failure rows behind one class × source cell of the overview (newest first), with their envelope and a link key (correlation_id) to the request view.
SELECT
  Timestamp,
  ServiceName AS service,
  SpanName AS span,
  code,
  message,
  retryable,
  retry_after,
  attempt,
  misrouted_retry,
  correlation_id,
  TraceId AS trace_id
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind != 'Server'
  AND class = {class:String}
  AND ({source:String} = '' OR source = {source:String})
  AND ({service:String} = '' OR ServiceName = {service:String})
ORDER BY Timestamp DESC
LIMIT 500
