-- name: dependencies
-- description: Each service → dependency edge of the range's logical outbound calls (CLIENT and PRODUCER spans; the dependency is faultline_call_dependency, sql/schema/006): calls, retries and misrouted retries (each SDK-internal attempt counted) and p50/p95 latency in ms from the dependency_calls_1m rollup, first-hand failures by class from first_hand_failures over failures.dependency, error rate = first-hand failures / calls. Filters: service, source, dependency; class keeps only the edges with first-hand failures of that class and counts only those. At most 500 edges, most failures first (the page sorts by budget consumed).
WITH
  edges AS (
    SELECT
      ServiceName AS service,
      dependency,
      sum(calls) AS calls,
      sum(retries) AS retries,
      sum(misrouted) AS misrouted,
      quantilesMerge(0.5, 0.95)(latency_ns) AS latency
    FROM dependency_calls_1m
    WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
      AND SpanKind IN ('Client', 'Producer')
      AND dependency != ''
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND ({source:String} = '' OR source = {source:String})
      AND ({dependency:String} = '' OR dependency = {dependency:String})
    GROUP BY service, dependency
  ),
  first_hand AS (
    SELECT
      ServiceName AS service,
      dependency,
      countIf(class = 'validation') AS validation,
      countIf(class = 'authentication') AS authentication,
      countIf(class = 'rate_limit') AS rate_limit,
      countIf(class = 'transient') AS transient,
      countIf(class = 'permanent') AS permanent,
      count() AS failures
    FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
    WHERE SpanKind IN ('Client', 'Producer')
      AND dependency != ''
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND ({source:String} = '' OR source = {source:String})
      AND ({dependency:String} = '' OR dependency = {dependency:String})
      AND ({class:String} = '' OR class = {class:String})
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
  if(e.calls = 0, 0, f.failures / e.calls) AS error_rate,
  e.latency[1] / 1e6 AS p50_ms,
  e.latency[2] / 1e6 AS p95_ms
FROM edges AS e
LEFT JOIN first_hand AS f ON f.service = e.service AND f.dependency = e.dependency
WHERE {class:String} = '' OR f.failures > 0
ORDER BY failures DESC, calls DESC, service, dependency
LIMIT 500
