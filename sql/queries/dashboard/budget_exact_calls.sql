-- name: budget_exact_calls
-- description: The logical outbound calls the preload counted in process (call_counts_1m: CLIENT and PRODUCER calls, whatever the sampler kept) per service, as budget_calls counts them: in the selected range, in each burn-rate window ending at {to} (calls_windows, one count per window of {windows_s}) and over the SLO period, with the first and the end of the last minute counted. A minute counted here replaces that minute's stored spans in the calls budget (budget_calls leaves them out).
SELECT
  ServiceName AS service,
  sumIf(calls, minute >= {from:DateTime}) AS range_calls,
  sumForEach(arrayMap(w -> if(minute >= {to:DateTime} - toIntervalSecond(w), calls, 0.0), {windows_s:Array(UInt32)})) AS calls_windows,
  sumIf(calls, minute >= {period_from:DateTime}) AS period_calls,
  toUnixTimestamp(min(minute)) AS first_seen,
  toUnixTimestamp(max(minute)) + 60 AS last_seen
FROM call_counts_1m
WHERE minute >= toStartOfMinute(least({period_from:DateTime}, {from:DateTime})) AND minute < {to:DateTime}
  AND faultline_outbound_call(SpanKind) AND calls > 0
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service
ORDER BY service
