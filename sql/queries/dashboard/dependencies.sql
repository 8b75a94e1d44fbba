-- name: dependencies
-- description: Each service → dependency edge of the range's logical outbound calls (CLIENT and PRODUCER spans; the dependency is faultline_call_dependency, sql/schema/006): calls, retries and misrouted retries (each SDK-internal attempt counted) and p50/p95 latency in ms of the stored spans (the exact reservoir of dependency_calls_1m) with calls_variance beside: an edge with calls_variance > 0 was sampled, and its latency weighted as its calls are is dependency_latency_weighted's (the page reads it for those edges alone, so an unsampled range reads no t-digest), first-hand failures by class from first_hand_failures over failures.dependency, error rate = first-hand failures / calls, and the edge's {per_edge} most frequent first-hand (class, code, count). Filters: service, source, dependency; class keeps only the edges with first-hand failures of that class and counts only those. At most 500 edges, most failures first (the page sorts by budget consumed). Who answered at each edge's endpoint (the service behind 127.0.0.1:37701, and how much of its traffic its own sampling dropped): request_callees with the edges' endpoints (faultline_dependency_endpoint), which the page joins (dependency-rows.ts), so this query runs no join for it.
WITH
  edges AS (
    SELECT
      ServiceName AS service,
      dependency,
      sum(calls) AS calls,
      sum(retries) AS retries,
      sum(misrouted) AS misrouted,
      sum(calls_variance) AS variance,
      quantilesMerge(0.5, 0.95)(latency_ns) AS latency
    FROM dependency_calls_1m
    WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
      AND faultline_outbound_call(SpanKind)
      AND dependency != ''
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND ({source:String} = '' OR source = {source:String})
      AND ({dependency:String} = '' OR dependency = {dependency:String})
    GROUP BY service, dependency
  ),
  -- One pass over the range's first-hand failures gives both the counts by class and the top codes.
  first_hand AS (
    SELECT
      service,
      dependency,
      sumIf(n, class = 'validation') AS validation,
      sumIf(n, class = 'authentication') AS authentication,
      sumIf(n, class = 'rate_limit') AS rate_limit,
      sumIf(n, class = 'transient') AS transient,
      sumIf(n, class = 'permanent') AS permanent,
      sum(n) AS failures,
      arraySlice(arraySort(c -> (-toInt64(c.3), c.1, c.2), groupArray((class, code, n))), 1, {per_edge:UInt32}) AS top_codes
    FROM (
      SELECT ServiceName AS service, dependency, class, code, sum(weight) AS n
      FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
      WHERE dependency != ''
        AND ({service:String} = '' OR ServiceName = {service:String})
        AND ({source:String} = '' OR source = {source:String})
        AND ({dependency:String} = '' OR dependency = {dependency:String})
        AND ({class:String} = '' OR class = {class:String})
      GROUP BY service, dependency, class, code
    )
    GROUP BY service, dependency
  )
SELECT
  e.service AS service,
  e.dependency AS dependency,
  e.calls AS calls,
  e.retries AS retries,
  e.misrouted AS misrouted,
  f.validation AS validation,
  f.authentication AS authentication,
  f.rate_limit AS rate_limit,
  f.transient AS transient,
  f.permanent AS permanent,
  f.failures AS failures,
  f.top_codes AS top_codes,
  if(e.calls = 0, 0, f.failures / e.calls) AS error_rate,
  e.latency[1] / 1e6 AS p50_ms,
  e.latency[2] / 1e6 AS p95_ms,
  e.variance AS calls_variance
FROM edges AS e
LEFT JOIN first_hand AS f ON f.service = e.service AND f.dependency = e.dependency
WHERE {class:String} = '' OR f.failures > 0
ORDER BY failures DESC, calls DESC, service, dependency
LIMIT 500
