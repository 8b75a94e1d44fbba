-- name: dependencies
-- description: Each service → dependency edge of the range's logical outbound calls (CLIENT and PRODUCER spans; the dependency is faultline_call_dependency, sql/schema/006): calls, retries and misrouted retries (each SDK-internal attempt counted) and p50/p95 latency in ms from the dependency_calls_1m rollup (weighted as the calls are where sampling weights differ, a t-digest read for those edges alone; else exact over the stored spans), first-hand failures by class from first_hand_failures over failures.dependency, error rate = first-hand failures / calls, and the edge's {per_edge} most frequent first-hand (class, code, count). Filters: service, source, dependency; class keeps only the edges with first-hand failures of that class and counts only those. At most 500 edges, most failures first (the page sorts by budget consumed). callee: the service that answered at the edge's endpoint in the range (service_endpoints, sql/schema/060: where its SERVER spans say they were reached), so an edge named 127.0.0.1:37701 reads as the service behind it; the one seen there last wins; '' when no service reported that endpoint (a database, a queue, a service without spans, or a host spelled differently by the two sides). callee_unsampled: the share of the callee's requests there whose spans its sampling dropped (from the weights of those it kept; 0 when it keeps all): a failed call whose callee span was dropped cannot be seen as the callee's echo, so that share of the edge's first-hand failures may be the callee's.
WITH
  edges AS (
    SELECT
      ServiceName AS service,
      dependency,
      sum(calls) AS calls,
      sum(retries) AS retries,
      sum(misrouted) AS misrouted,
      sum(calls_variance) AS variance,
      quantilesMerge(0.5, 0.95)(latency_ns) AS exact_latency
    FROM dependency_calls_1m
    WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
      AND faultline_outbound_call(SpanKind)
      AND dependency != ''
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND ({source:String} = '' OR source = {source:String})
      AND ({dependency:String} = '' OR dependency = {dependency:String})
    GROUP BY service, dependency
  ),
  -- Weighted only where the weights differ (040): the t-digests are read for those edges alone, the
  -- rest keep the exact reservoir of their stored spans.
  weighted AS (
    SELECT ServiceName AS service, dependency, quantilesTDigestWeightedMerge(0.5, 0.95)(latency_weighted_ns) AS latency
    FROM dependency_calls_1m
    WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
      AND (ServiceName, dependency) IN (
        SELECT ServiceName, dependency FROM dependency_calls_1m
        WHERE minute >= {from:DateTime} AND minute < {to:DateTime} AND calls_variance > 0
      )
      AND faultline_outbound_call(SpanKind)
      AND ({source:String} = '' OR source = {source:String})
    GROUP BY service, dependency
  ),
  -- Who answered at each edge's endpoint (endpoint_callees, 060).
  callees AS (
    SELECT endpoint, callee, callee_unsampled FROM endpoint_callees(from = {from:DateTime}, to = {to:DateTime})
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
  if(e.variance = 0, e.exact_latency[1], w.latency[1]) / 1e6 AS p50_ms,
  if(e.variance = 0, e.exact_latency[2], w.latency[2]) / 1e6 AS p95_ms,
  k.callee AS callee,
  k.callee_unsampled AS callee_unsampled
FROM edges AS e
LEFT JOIN first_hand AS f ON f.service = e.service AND f.dependency = e.dependency
LEFT JOIN weighted AS w ON w.service = e.service AND w.dependency = e.dependency
LEFT JOIN callees AS k ON k.endpoint = faultline_dependency_endpoint(e.dependency)
WHERE {class:String} = '' OR f.failures > 0
ORDER BY failures DESC, calls DESC, service, dependency
LIMIT 500
