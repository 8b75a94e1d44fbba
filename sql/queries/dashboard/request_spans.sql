-- name: request_spans
-- description: Every span of one request across services, found by correlation id or trace id (oldest first), with its envelope attributes and redacted raw detail.
SELECT
  toUnixTimestamp64Nano(Timestamp) AS start_ns,
  Duration AS duration_ns,
  ServiceName AS service,
  SpanName AS span,
  SpanKind AS kind,
  TraceId AS trace_id,
  SpanId AS span_id,
  ParentSpanId AS parent_span_id,
  StatusCode AS status,
  StatusMessage AS status_message,
  SpanAttributes['faultline.correlation_id'] AS correlation_id,
  SpanAttributes['faultline.class'] AS class,
  SpanAttributes['faultline.source'] AS source,
  SpanAttributes['faultline.code'] AS code,
  SpanAttributes['faultline.message'] AS message,
  SpanAttributes['faultline.retryable'] AS retryable,
  SpanAttributes['faultline.retry_after'] AS retry_after,
  SpanAttributes['faultline.attempt'] AS attempt,
  SpanAttributes['faultline.misrouted_retry'] AS misrouted_retry,
  SpanAttributes['faultline.raw'] AS raw
FROM otel_traces
WHERE TraceId = {id:String} OR SpanAttributes['faultline.correlation_id'] = {id:String}
ORDER BY Timestamp
LIMIT 2000
