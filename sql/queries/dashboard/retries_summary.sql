-- name: retries_summary
-- description: Outbound calls, retries (attempt > 1), retries that failed again, and misrouted retries in a time range, from the calls_1m rollup.
SELECT
  sum(calls) AS total_calls,
  sum(retries) AS total_retries,
  sumIf(retries, class != '') AS failed_retries,
  sum(misrouted) AS total_misrouted
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
