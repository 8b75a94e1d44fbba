-- name: dependencies
-- description: Each service → dependency edge of the range's logical outbound calls (CLIENT and PRODUCER spans; the dependency is faultline_call_dependency, sql/schema/006): calls, retries and misrouted retries (each SDK-internal attempt counted) and p50/p95 latency in ms from the dependency_calls_1m rollup, first-hand failures by class from first_hand_failures over failures.dependency, error rate = first-hand failures / calls, and the edge's {per_edge} most frequent first-hand (class, code, count). Filters: service, source, dependency; class keeps only the edges with first-hand failures of that class and counts only those. At most 500 edges, most failures first (the page sorts by budget consumed). callee: the service that answered the edge's calls, where the callee reported its own SERVER span (a child of the CLIENT span in the same trace), so an edge named 127.0.0.1:37701 reads as the service behind it; '' when none did. Decided at read time from a bounded lookup: only the edge's last minute in the range and its last minute with a call that did not fail (from the rollup), so it reads a minute or two of spans whatever the range; the service seen most there wins (an edge none of whose calls were answered in those minutes keeps its own name).
WITH
  edges AS MATERIALIZED (
    SELECT
      ServiceName AS service,
      dependency,
      sum(calls) AS calls,
      sum(retries) AS retries,
      sum(misrouted) AS misrouted,
      quantilesMerge(0.5, 0.95)(latency_ns) AS latency,
      -- Where to look for who answered (callees below): the edge's last minute, and its last minute
      -- with a call that did not fail (a callee that stopped answering still answered then).
      max(minute) AS last_minute,
      maxIf(minute, dependency_calls_1m.calls > dependency_calls_1m.failures) AS last_answered_minute
    FROM dependency_calls_1m
    WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
      AND faultline_outbound_call(SpanKind)
      AND dependency != ''
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND ({source:String} = '' OR source = {source:String})
      AND ({dependency:String} = '' OR dependency = {dependency:String})
    GROUP BY service, dependency
  ),
  -- Who answered: each caller's minutes to look in (one or two per edge; the spans of a minute sit
  -- together in otel_traces' order, so only those granules are read, never the range).
  lookup_minutes AS MATERIALIZED (
    SELECT DISTINCT service, m AS minute
    FROM edges
    ARRAY JOIN [last_minute, last_answered_minute] AS m
    WHERE m >= {from:DateTime}
  ),
  -- SERVER spans with a remote parent in those minutes (a call at :59.9 answered after the minute
  -- turns is not seen: the others of its minute are). Light columns only.
  answers AS MATERIALIZED (
    SELECT TraceId, ParentSpanId, ServiceName
    FROM otel_traces
    PREWHERE toStartOfMinute(Timestamp) IN (SELECT minute FROM lookup_minutes)
    WHERE Timestamp >= (SELECT min(minute) FROM lookup_minutes)
      AND Timestamp < (SELECT max(minute) FROM lookup_minutes) + INTERVAL 1 MINUTE
      AND SpanKind IN ('Server', 'SPAN_KIND_SERVER')
      AND ParentSpanId != ''
      AND ServiceName != ''
  ),
  -- The callers' CLIENT spans of those minutes that a SERVER span answered, named as the rollup
  -- names them (their attributes are read only where such a span is).
  looked_up_calls AS (
    SELECT TraceId, SpanId, ServiceName AS service, faultline_call_dependency(SpanKind, SpanAttributes) AS dependency
    FROM otel_traces
    PREWHERE SpanId IN (SELECT ParentSpanId FROM answers)
      AND (ServiceName, toStartOfMinute(Timestamp)) IN (SELECT service, minute FROM lookup_minutes)
    WHERE Timestamp >= (SELECT min(minute) FROM lookup_minutes)
      AND Timestamp < (SELECT max(minute) FROM lookup_minutes) + INTERVAL 1 MINUTE
      AND SpanKind IN ('Client', 'SPAN_KIND_CLIENT')
  ),
  -- A SERVER span whose parent is the caller's CLIENT span (same trace) names the callee.
  callees AS (
    SELECT c.service AS service, c.dependency AS dependency, topK(1)(a.ServiceName)[1] AS callee
    FROM answers AS a
    INNER JOIN looked_up_calls AS c ON c.TraceId = a.TraceId AND c.SpanId = a.ParentSpanId
    WHERE c.dependency != ''
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
  k.callee AS callee
FROM edges AS e
LEFT JOIN first_hand AS f ON f.service = e.service AND f.dependency = e.dependency
LEFT JOIN callees AS k ON k.service = e.service AND k.dependency = e.dependency
WHERE {class:String} = '' OR f.failures > 0
ORDER BY failures DESC, calls DESC, service, dependency
LIMIT 500
