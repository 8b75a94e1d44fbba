-- name: failures_by_class
-- description: The first-hand failure rows behind one class × source cell of the overview (newest first; first_hand_failures), with their envelope and a link key (correlation_id) to the request view. No LIMIT of its own: the console's row cap applies and says when it cut.
SELECT
  Timestamp,
  ServiceName AS service,
  SpanName AS span,
  SpanKind AS kind,
  code,
  message,
  retryable,
  retry_after,
  attempt,
  misrouted_retry,
  correlation_id,
  TraceId AS trace_id
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE class = {class:String}
  AND ({source:String} = '' OR source = {source:String})
  AND ({service:String} = '' OR ServiceName = {service:String})
ORDER BY Timestamp DESC
