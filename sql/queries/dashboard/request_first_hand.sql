-- name: request_first_hand
-- description: The spans of one request (by correlation id or trace id) that failed first-hand, by first_hand_failures over the request's own window (from/to: the first span's start and the last span's end, as request_spans returned them, whole seconds), so the request page and every count agree on what an echo is. A failed span of the request not listed here is propagated.
SELECT DISTINCT TraceId AS trace_id, SpanId AS span_id
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE TraceId = {id:String} OR correlation_id = {id:String}
LIMIT 501
