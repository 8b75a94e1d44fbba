-- name: budget_calls
-- description: Logical outbound calls per service (faultline_outbound_call; each attempt counted; never a pool checkout, a successful connect or a transport request) in the selected range, in each burn-rate window ending at {to} (calls_windows, one count per window of {windows_s}, in seconds: the callers pass BURN_WINDOWS of collector/src/budget/budget-settings.ts, e.g. [300,1800,3600,21600,259200]) and over the SLO period [{period_from}, {to}), with the first minute seen in the period and the end of the last (last_seen: the observed time ends there, not at the clock). A minute the preload counted in process (call_counts_1m) takes its exact count; the others read the calls_1m rollup, whose calls are sums of span weights (a sampled span stands for 1/p calls). exact_calls is the part of range_calls counted exactly.
WITH exact AS (
  SELECT ServiceName, minute, sum(calls) AS calls
  FROM call_counts_1m
  WHERE minute >= toStartOfMinute(least({period_from:DateTime}, {from:DateTime})) AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
  GROUP BY ServiceName, minute
  HAVING calls > 0
)
SELECT
  ServiceName AS service,
  sumIf(calls, minute >= {from:DateTime}) AS range_calls,
  sumForEach(arrayMap(w -> if(minute >= {to:DateTime} - toIntervalSecond(w), calls, 0), {windows_s:Array(UInt32)})) AS calls_windows,
  sum(calls) AS period_calls,
  sumIf(calls, minute >= {from:DateTime} AND is_exact) AS exact_calls,
  toUnixTimestamp(min(minute)) AS first_seen,
  toUnixTimestamp(max(minute)) + 60 AS last_seen
FROM (
  SELECT ServiceName, minute, calls, false AS is_exact
  FROM calls_1m
  WHERE minute >= least({period_from:DateTime}, {from:DateTime}) AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    -- A minute is counted exactly when it has exact rows, or the next minute has: a count is filed
    -- under the minute its export ended in, so the last seconds of a minute (all of them for a
    -- process that started then) arrive with the next one.
    AND (ServiceName, minute) NOT IN (
      SELECT ServiceName, minute FROM exact
      UNION ALL
      SELECT ServiceName, minute - INTERVAL 1 MINUTE FROM exact)
  UNION ALL
  SELECT ServiceName, minute, calls, true AS is_exact FROM exact
)
GROUP BY service
ORDER BY service
