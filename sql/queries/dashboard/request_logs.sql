-- name: request_logs
-- description: The log records of one request (otel_logs), found by trace id or by the correlation id a record carries (faultline.correlation_id), between {from} and {to} (the dashboard passes the request's spans' window, a minute either side): each with its time in nanoseconds (as text: a double cannot hold it), its span (span_id '' for a record logged outside a span), severity, body and exception type and message (each cut to 2,000 characters), and the envelope the record carries when it shows a failure (class, code). Oldest first, at most 501 (a page shows 500 and says there are more).
SELECT
  toString(toUnixTimestamp64Nano(Timestamp)) AS time_ns,
  TraceId AS trace_id,
  SpanId AS span_id,
  substringUTF8(ServiceName, 1, 200) AS service,
  substringUTF8(SeverityText, 1, 40) AS severity_text,
  SeverityNumber AS severity_number,
  substringUTF8(Body, 1, 2000) AS body,
  substringUTF8(LogAttributes['exception.type'], 1, 500) AS exception_type,
  substringUTF8(LogAttributes['exception.message'], 1, 2000) AS exception_message,
  LogAttributes['faultline.class'] AS class,
  substringUTF8(LogAttributes['faultline.code'], 1, 200) AS code
FROM otel_logs
WHERE TimestampTime >= {from:DateTime} AND TimestampTime <= {to:DateTime}
  AND (TraceId = {id:String} OR LogAttributes['faultline.correlation_id'] = {id:String})
ORDER BY Timestamp
LIMIT 501
