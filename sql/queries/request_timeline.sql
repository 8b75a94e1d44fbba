-- name: request_timeline
-- description: Every span of one request in time order, across services: id is a correlation id (faultline.correlation_id) or a trace id. The window bounds the scan; widen it if the request is older.
SELECT
    Timestamp,
    ServiceName AS service,
    SpanKind AS kind,
    SpanName AS operation,
    round(Duration / 1e6, 3) AS duration_ms,
    StatusCode AS status,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.source'] AS source,
    SpanAttributes['faultline.code'] AS code,
    SpanAttributes['faultline.message'] AS message,
    greatest(toUInt16OrZero(SpanAttributes['faultline.attempt']), 1) AS attempt,
    SpanAttributes['faultline.misrouted_retry'] = 'true' AS misrouted_retry,
    TraceId,
    SpanId,
    ParentSpanId
FROM otel_traces
WHERE Timestamp >= {from:DateTime64(3)} AND Timestamp < {to:DateTime64(3)}
  AND (SpanAttributes['faultline.correlation_id'] = {id:String} OR TraceId = {id:String})
ORDER BY Timestamp, SpanId
LIMIT 5000
