-- name: retries_listed
-- description: The retries one figure of the Retries page's by-class table counts, one row each, newest first (retry_rows, 525, the rows retries_by_class sums): those after a failure of after_class ('after success' for a retry with no failed predecessor); succeeded = 1 keeps the ones that succeeded. weight is what a retry stands for under trace sampling; total, the same on every row, is their sum: the figure clicked.
SELECT
  Timestamp,
  ServiceName,
  SpanName,
  correlation_id,
  TraceId,
  attempt,
  after_class,
  class,
  source,
  code,
  weight,
  sum(weight) OVER () AS total
FROM retry_rows(from = {from:DateTime}, to = {to:DateTime}, service = {service:String}, source = {source:String})
WHERE after_class = {after_class:String}
  AND ({succeeded:UInt8} = 0 OR class = '')
ORDER BY Timestamp DESC, correlation_id
