-- name: failure_groups
-- description: Failure groups of the range: each (service, dependency, class, code) of the range's first-hand failures (first_hand_failures) with its count, the count over the previous range of the same length (prev_from = from - (to - from)) as the trend, last seen, the service.version values it appears in (ResourceAttributes of the failing spans), an example failure (its correlation id, trace id and span id, the newest of the group), how many of its failures only a log record shows (from_logs: a record with no span, whose row's span id is 'log:…', sql/schema/070) and its state. First seen and the state come from the first-hand failures (first_hand_failures, the same rule as the range's) over a bounded lookback, lookback_from (the dashboard passes from - 7 days) to from: "new" when no earlier row of the group is in the lookback (first seen inside the range), "regressed" when earlier rows exist but none in the 24 hours before from (quiet for a day, seen again), else "ongoing". Dependency is the failure row's own (failures.dependency, computed once at ingest by faultline_call_dependency, sql/schema/006); the version is read from otel_traces for the range's failure rows only, pruned by service, span name and time. Filters, so that a count shown elsewhere opens exactly its rows: service, source, class, dependency and code ('' = all; a field named in none, e.g. ['dependency', 'code'], matches only rows where it is ''), outbound = 1 keeps the failures of outbound calls only (faultline_outbound_call: what the budget's calls SLI and the Dependencies page count), counted = 'yes' keeps the classes counted against the budget and 'no' only those left out of it (left_out: the caller-fault classes the page leaves out, [] when it includes them; '' = every class). Newest and growing first, at most {limit} groups (the dashboard passes 500).
WITH
cur AS (
  SELECT cityHash64(TraceId, SpanId) AS h, ServiceName, SpanName, dependency, class, source, code, Timestamp, correlation_id, TraceId, SpanId, weight
  FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
  WHERE (({service:String} = '' AND NOT has({none:Array(String)}, 'service')) OR ServiceName = {service:String})
    AND (({source:String} = '' AND NOT has({none:Array(String)}, 'source')) OR source = {source:String})
    AND ({class:String} = '' OR class = {class:String})
    AND (({dependency:String} = '' AND NOT has({none:Array(String)}, 'dependency')) OR dependency = {dependency:String})
    AND (({code:String} = '' AND NOT has({none:Array(String)}, 'code')) OR code = {code:String})
    AND ({outbound:UInt8} = 0 OR faultline_outbound_call(SpanKind))
    AND ({counted:String} = '' OR has({left_out:Array(String)}, class) = ({counted:String} = 'no'))
),
prev AS (
  SELECT ServiceName, dependency, class, code, Timestamp, weight
  FROM first_hand_failures(from = {prev_from:DateTime}, to = {from:DateTime})
  WHERE (ServiceName, dependency, class, code) IN (SELECT ServiceName, dependency, class, code FROM cur)
),
spans AS (
  SELECT cityHash64(TraceId, SpanId) AS h,
    substringUTF8(ResourceAttributes['service.version'], 1, 100) AS version
  FROM otel_traces
  WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
    AND (ServiceName, SpanName) IN (SELECT ServiceName, SpanName FROM cur)
    AND cityHash64(TraceId, SpanId) IN (SELECT h FROM cur)
  LIMIT 1 BY h
),
g AS (
  SELECT ServiceName AS service, dependency, class, code,
    any(source) AS source,
    sum(weight) AS failures,
    -- Failures only a log record shows (a record with no span: its row's id is 'log:…', 070).
    sum(if(startsWith(SpanId, 'log:'), weight, 0)) AS from_logs,
    min(Timestamp) AS first_in_range,
    max(Timestamp) AS last_ts,
    -- One row's ids together: separate argMax calls could take them from two rows of the same instant.
    argMax((correlation_id, TraceId, SpanId), Timestamp) AS example,
    arraySort(arrayFilter(v -> v != '', groupUniqArray(20)(version))) AS versions
  FROM cur LEFT JOIN spans USING (h)
  GROUP BY service, dependency, class, code
),
p AS (
  SELECT ServiceName AS service, dependency, class, code, sum(weight) AS previous
  FROM prev
  GROUP BY service, dependency, class, code
),
e AS (
  SELECT ServiceName AS service, dependency, class, code,
    sum(weight) AS earlier, min(Timestamp) AS first_earlier, max(Timestamp) AS last_earlier
  FROM first_hand_failures(from = {lookback_from:DateTime}, to = {from:DateTime})
  WHERE (ServiceName, dependency, class, code) IN (SELECT ServiceName, dependency, class, code FROM cur)
  GROUP BY service, dependency, class, code
)
SELECT
  g.service AS service, g.dependency AS dependency, g.class AS class, g.source AS source, g.code AS code,
  g.failures AS failures,
  g.from_logs AS from_logs,
  p.previous AS previous,
  g.failures - p.previous AS trend,
  toUnixTimestamp(if(e.earlier > 0, e.first_earlier, g.first_in_range)) AS first_seen,
  toUnixTimestamp(g.last_ts) AS last_seen,
  if(e.earlier > 0, toUnixTimestamp(e.last_earlier), 0) AS last_seen_before,
  multiIf(e.earlier = 0, 'new',
    e.last_earlier < {from:DateTime} - INTERVAL 24 HOUR, 'regressed', 'ongoing') AS state,
  g.versions AS versions,
  tupleElement(g.example, 1) AS example_correlation_id,
  tupleElement(g.example, 2) AS example_trace_id,
  tupleElement(g.example, 3) AS example_span_id
FROM g
LEFT JOIN p ON p.service = g.service AND p.dependency = g.dependency AND p.class = g.class AND p.code = g.code
LEFT JOIN e ON e.service = g.service AND e.dependency = g.dependency AND e.class = g.class AND e.code = g.code
ORDER BY indexOf(['new', 'regressed', 'ongoing'], state), trend DESC, first_seen DESC, failures DESC,
  service, dependency, class, code
LIMIT {limit:UInt32}
