-- name: overview_budget
-- description: Outbound calls and failures per service and class in a time range (error budget panel). Reads the calls_1m rollup; class '' is the successful calls.
SELECT
  ServiceName AS service,
  class,
  sum(calls) AS calls,
  sum(failures) AS failures,
  sum(retryable_failures) AS retryable_failures
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service, class
ORDER BY service, class
