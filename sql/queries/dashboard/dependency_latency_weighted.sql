-- name: dependency_latency_weighted
-- description: The p50/p95 latency in ms of the service → dependency edges whose calls were sampled (dependencies' calls_variance > 0), weighted as their calls are (each span counts its weight: the preload keeps every failed call and 1/p of the others, so the stored spans over-represent the failures and an unweighted p50 reads their latency), from the t-digests of dependency_calls_1m (040). {services} and {dependencies}: the edges' services and dependencies (the page passes the sampled edges'; a pair not asked for may come back and is ignored). Filters as dependencies: range, source.
SELECT
  ServiceName AS service,
  dependency,
  quantilesTDigestWeightedMerge(0.5, 0.95)(latency_weighted_ns) AS latency,
  latency[1] / 1e6 AS p50_ms,
  latency[2] / 1e6 AS p95_ms
FROM dependency_calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
  AND ServiceName IN {services:Array(String)}
  AND dependency IN {dependencies:Array(String)}
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service, dependency
ORDER BY service, dependency
