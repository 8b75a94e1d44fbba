-- name: budget_exact_requests
-- description: The entry requests the preload counted in process (call_counts_1m: entry SERVER calls) per entry service, as budget_requests counts them: in the selected range, in each burn-rate window ending at {to} (requests_windows, one count per window of {windows_s}) and over the SLO period, with the first and the end of the last minute counted. A minute counted here replaces that minute's stored workflows in the requests budget.
SELECT
  ServiceName AS service,
  sumIf(calls, minute >= {from:DateTime}) AS range_requests,
  sumForEach(arrayMap(w -> if(minute >= {to:DateTime} - toIntervalSecond(w), calls, 0.0), {windows_s:Array(UInt32)})) AS requests_windows,
  sumIf(calls, minute >= {period_from:DateTime}) AS period_requests,
  toUnixTimestamp(min(minute)) AS first_seen,
  toUnixTimestamp(max(minute)) + 60 AS last_seen
FROM call_counts_1m
WHERE minute >= toStartOfMinute(least({period_from:DateTime}, {from:DateTime})) AND minute < {to:DateTime}
  AND entry AND SpanKind = 'Server' AND calls > 0
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service
ORDER BY service
