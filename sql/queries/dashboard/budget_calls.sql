-- name: budget_calls
-- description: Logical outbound calls per service (each attempt counted; never a pool checkout, a successful connect or a transport request) in the selected range, in the burn-rate windows ending at {to} (5 m, 30 m, 1 h, 6 h, 3 d) and over the SLO period [{period_from}, {to}), with the first minute seen in the period. Reads the calls_1m rollup.
SELECT
  ServiceName AS service,
  sumIf(calls, minute >= {from:DateTime}) AS range_calls,
  sumIf(calls, minute >= {to:DateTime} - INTERVAL 5 MINUTE) AS calls_5m,
  sumIf(calls, minute >= {to:DateTime} - INTERVAL 30 MINUTE) AS calls_30m,
  sumIf(calls, minute >= {to:DateTime} - INTERVAL 1 HOUR) AS calls_1h,
  sumIf(calls, minute >= {to:DateTime} - INTERVAL 6 HOUR) AS calls_6h,
  sumIf(calls, minute >= {to:DateTime} - INTERVAL 3 DAY) AS calls_3d,
  sum(calls) AS period_calls,
  toUnixTimestamp(min(minute)) AS first_seen
FROM calls_1m
WHERE minute >= least({period_from:DateTime}, {from:DateTime}) AND minute < {to:DateTime}
  AND SpanKind IN ('Client', 'Producer')
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service
ORDER BY service
