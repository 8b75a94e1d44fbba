-- name: budget_call_rows
-- description: The rows behind an Overview calls figure (a budget row's calls, the headline's logical outbound calls): each service's logical outbound calls by minute and source as the calls budget counts them (budget_calls beside budget_exact_calls), in the range, newest first. counted = 'exact' where the preload counted the minute in process (call_counts_1m), 'stored spans' elsewhere (calls_1m: sums of span weights, a sampled span standing for 1/p calls; the minutes counted exactly left out, exact_count_minutes, 050). calls is the row's count; total, the same on every row, is their sum: the figure clicked. call_counts counts the raw spans instead, one each times its weight, whatever the preload counted.
WITH
stored AS (
  SELECT minute, ServiceName, source, 'stored spans' AS counted, sum(calls) AS row_calls
  FROM calls_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    AND faultline_minute_key(cityHash64(ServiceName), minute) NOT IN (
      SELECT minute_key
      FROM exact_count_minutes(from = {from:DateTime}, to = {to:DateTime}, entry = 0,
        service = {service:String}, source = {source:String}))
  GROUP BY minute, ServiceName, source
),
exact AS (
  SELECT minute, ServiceName, source, 'exact' AS counted, sum(calls) AS row_calls
  FROM call_counts_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind) AND calls > 0
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
  GROUP BY minute, ServiceName, source
)
SELECT minute, ServiceName, source, counted, row_calls AS calls, sum(row_calls) OVER () AS total
FROM (SELECT * FROM stored UNION ALL SELECT * FROM exact)
WHERE row_calls != 0
ORDER BY minute DESC, ServiceName, counted, source
