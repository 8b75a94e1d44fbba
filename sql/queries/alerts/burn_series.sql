-- name: burn_series
-- description: One service's logical outbound calls (calls_1m, kind 'calls') and first-hand failures by class (first_hand_failures, kind 'failures'), CLIENT and PRODUCER spans, per {bucket_s}-second bucket in [{from}, {to}): what budget_calls and budget_failures count, over time, for the Alerts page's burn-rate chart.
SELECT
  'calls' AS kind,
  toUnixTimestamp(toStartOfInterval(minute, toIntervalSecond({bucket_s:UInt32}))) AS bucket_s,
  '' AS class,
  sum(calls) AS n
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
  AND ServiceName = {service:String}
GROUP BY bucket_s
UNION ALL
SELECT
  'failures' AS kind,
  toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket_s:UInt32}))) AS bucket_s,
  class,
  sum(weight) AS n
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ServiceName = {service:String}
GROUP BY bucket_s, class
