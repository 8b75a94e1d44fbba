-- name: sampling_coverage
-- description: How far to trust each service's outbound call counts in [{from}, {to}): estimated_calls as the stored spans estimate them (sums of weights, dependency_calls_1m) with their variance (the panels' ±x% at 95% is 1.96 × sqrt(variance) / estimated_calls), the stored calls whose span carried no sampling mark (counted as 1 each: right only if nothing dropped their siblings) and those whose mark was malformed, and exact_calls, the calls the preload counted in process (call_counts_1m) whatever the sampler kept.
SELECT
  ServiceName AS service,
  sumIf(n, kind = 'spans') AS estimated_calls,
  sumIf(variance, kind = 'spans') AS variance,
  sumIf(unmarked, kind = 'spans') AS unmarked_calls,
  sumIf(invalid, kind = 'spans') AS invalid_marks,
  sumIf(n, kind = 'exact') AS exact_calls
FROM (
  SELECT 'spans' AS kind, ServiceName, toFloat64(sum(calls)) AS n, toFloat64(sum(calls_variance)) AS variance,
    toFloat64(sum(unmarked_calls)) AS unmarked, toFloat64(sum(invalid_marks)) AS invalid
  FROM dependency_calls_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
  GROUP BY ServiceName
  UNION ALL
  SELECT 'exact' AS kind, ServiceName, toFloat64(sum(calls)) AS n, 0.0, 0.0, 0.0
  FROM call_counts_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
  GROUP BY ServiceName
)
GROUP BY service
ORDER BY service
