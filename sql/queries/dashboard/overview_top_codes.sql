-- name: overview_top_codes
-- description: The most frequent failure codes in a time range with their retryable count, last occurrence and an example message, from the failure_codes_1m rollup.
SELECT
  class,
  source,
  code,
  sum(failures) AS failures,
  sum(retryable_failures) AS retryable_failures,
  toUnixTimestamp(max(last_seen)) AS last_seen,
  anyLast(example_message) AS example_message
FROM failure_codes_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY class, source, code
ORDER BY failures DESC, class, source, code
LIMIT {limit:UInt32}
