-- name: budget_calls
-- description: Logical outbound calls per service (faultline_outbound_call; each attempt counted; never a pool checkout, a successful connect or a transport request) as stored spans count them (calls_1m: sums of span weights, a sampled span standing for 1/p calls), in the selected range, in each burn-rate window ending at {to} (calls_windows, one count per window of {windows_s}, in seconds: the callers pass BURN_WINDOWS of collector/src/budget/budget-settings.ts, e.g. [300,1800,3600,21600,259200]) and over the SLO period [{period_from}, {to}), with the first minute seen in the period and the end of the last (last_seen: the observed time ends there, not at the clock). Every stored span counts here: where the preload counted minutes of the period in process (budget_exact_calls has rows), readCallBudgetRows (collector/src/budget/budget-reads.ts) runs budget_calls_beside_exact instead, which leaves those minutes to the exact count.
SELECT
  ServiceName AS service,
  sumIf(calls, minute >= {from:DateTime}) AS range_calls,
  sumForEach(arrayMap(w -> if(minute >= {to:DateTime} - toIntervalSecond(w), calls, 0), {windows_s:Array(UInt32)})) AS calls_windows,
  sum(calls) AS period_calls,
  toUnixTimestamp(min(minute)) AS first_seen,
  toUnixTimestamp(max(minute)) + 60 AS last_seen
FROM calls_1m
WHERE minute >= least({period_from:DateTime}, {from:DateTime}) AND minute < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service
ORDER BY service
