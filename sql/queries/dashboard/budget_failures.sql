-- name: budget_failures
-- description: First-hand failures of logical outbound calls per service and class (first_hand_failures, CLIENT and PRODUCER spans) in the selected range, in the burn-rate windows ending at {to} and over the SLO period, beside all failures of the service's calls in the range (echoes included: propagated = all - first-hand). The class and dependency filters ('' = all; the alert evaluator passes '') narrow the failures only: the service's calls (budget_calls) stay the denominator, so the Overview shows the share of each service's budget that failures of one class or dependency spent.
WITH first_hand AS (
  SELECT ServiceName, class, Timestamp
  FROM first_hand_client_failures(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime})
  WHERE SpanKind IN ('Client', 'Producer')
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    AND ({class:String} = '' OR class = {class:String})
    AND ({dependency:String} = '' OR dependency = {dependency:String})
)
SELECT
  ServiceName AS service,
  class,
  countIf(Timestamp >= {from:DateTime}) AS range_failures,
  countIf(Timestamp >= {to:DateTime} - INTERVAL 5 MINUTE) AS failures_5m,
  countIf(Timestamp >= {to:DateTime} - INTERVAL 30 MINUTE) AS failures_30m,
  countIf(Timestamp >= {to:DateTime} - INTERVAL 1 HOUR) AS failures_1h,
  countIf(Timestamp >= {to:DateTime} - INTERVAL 6 HOUR) AS failures_6h,
  countIf(Timestamp >= {to:DateTime} - INTERVAL 3 DAY) AS failures_3d,
  countIf(Timestamp >= {period_from:DateTime}) AS period_failures,
  toUInt64(0) AS range_all_failures
FROM first_hand
GROUP BY service, class
UNION ALL
SELECT
  ServiceName AS service,
  '' AS class,
  0, 0, 0, 0, 0, 0, 0,
  count() AS range_all_failures
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind IN ('Client', 'Producer')
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
GROUP BY service
