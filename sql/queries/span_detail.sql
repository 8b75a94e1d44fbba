-- name: span_detail
-- description: One span's full texts, uncut: its envelope message and raw detail (as stored: redacted before storage), status message, every attribute, every event and the resource attributes. Pages cut long texts (and the request page's span panel redacts what it shows; this is the stored value, for people who may read raw spans); this is the value behind "full value".
SELECT
  ServiceName AS service,
  SpanName AS span,
  StatusMessage AS status_message,
  SpanAttributes['faultline.message'] AS message,
  SpanAttributes['faultline.raw'] AS raw,
  SpanAttributes AS attributes,
  arrayZip(Events.Timestamp, Events.Name, Events.Attributes) AS events,
  ResourceAttributes AS resource
FROM otel_traces
WHERE TraceId = {trace_id:String} AND SpanId = {span_id:String}
LIMIT 1
