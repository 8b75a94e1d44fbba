-- name: overview_top_codes
-- description: The most frequent failure codes in a time range with their retryable count, last occurrence and one example message, from the failures table.
SELECT
  class,
  source,
  code,
  count() AS failures,
  countIf(retryable) AS retryable_failures,
  toUnixTimestamp(max(Timestamp)) AS last_seen,
  argMax(message, Timestamp) AS example_message
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY class, source, code
ORDER BY failures DESC, class, source, code
LIMIT {limit:UInt32}
