-- name: span_detail
-- description: One span's full texts, uncut: its envelope message and raw detail (as stored: redacted before storage), status message and every attribute. Pages cut long texts; this is the value behind "full value".
SELECT
  ServiceName AS service,
  SpanName AS span,
  StatusMessage AS status_message,
  SpanAttributes['faultline.message'] AS message,
  SpanAttributes['faultline.raw'] AS raw,
  SpanAttributes AS attributes
FROM otel_traces
WHERE TraceId = {trace_id:String} AND SpanId = {span_id:String}
LIMIT 1
