-- name: budget_calls_beside_exact
-- description: budget_calls where the preload counted minutes of the period in process (budget_exact_calls has rows): the same counts with those minutes left out, as budget_exact_calls gives them (a minute with exact rows, or whose next minute has them: a count is filed under the minute its export ended in, so a minute's last seconds arrive with the next one); callBudgetInputs adds the two. The caller chooses (readCallBudgetRows, collector/src/budget/budget-reads.ts): the lookup costs a subquery, which a period with no exact minutes does not pay (the pages bench prints both). Every line of budget_calls is here in order (test/queries/budget-query-variants.test.ts).
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
  -- The minutes counted exactly are the exact count's (budget_exact_calls).
  AND (faultline_minute_key(cityHash64(ServiceName), minute) NOT IN (
    SELECT minute_key
    FROM exact_count_minutes(from = least({period_from:DateTime}, {from:DateTime}), to = {to:DateTime}, entry = 0,
      service = {service:String}, source = {source:String})))
GROUP BY service
ORDER BY service
