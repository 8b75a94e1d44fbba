-- name: budget_failures
-- description: First-hand failures (sums of failures.weight: a kept failure counts 1, a sampled one 1/p) of logical outbound calls per service and class (first_hand_client_failures: faultline_outbound_call) in the selected range, in each burn-rate window ending at {to} (failures_windows, one count per window of {windows_s}, in seconds, as budget_calls) and over the SLO period, beside all failures of the service's calls in the range (echoes included: propagated = all - first-hand). The class and dependency filters ('' = all; the alert evaluator passes '') narrow the failures only: the service's calls (budget_calls) stay the denominator, so the Overview shows the share of each service's budget that failures of one class or dependency spent.
WITH first_hand AS (
  SELECT ServiceName, class, Timestamp, weight
  FROM first_hand_client_failures(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime})
  WHERE ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    AND ({class:String} = '' OR class = {class:String})
    AND ({dependency:String} = '' OR dependency = {dependency:String})
)
SELECT
  ServiceName AS service,
  class,
  sumIf(weight, Timestamp >= {from:DateTime}) AS range_failures,
  sumForEach(arrayMap(w -> if(Timestamp >= {to:DateTime} - toIntervalSecond(w), weight, 0.0), {windows_s:Array(UInt32)})) AS failures_windows,
  sumIf(weight, Timestamp >= {period_from:DateTime}) AS period_failures,
  0.0 AS range_all_failures
FROM first_hand
GROUP BY service, class
UNION ALL
SELECT
  ServiceName AS service,
  '' AS class,
  0.0,
  arrayMap(w -> 0.0, {windows_s:Array(UInt32)}),
  0.0,
  sum(weight) AS range_all_failures
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
GROUP BY service
