-- name: dependencies
-- description: Each service → dependency edge (faultline_dependency, sql/schema/006) of the range's logical outbound calls: calls (each SDK-internal attempt counted), first-hand failures by class (first_hand_failures), error rate, p50/p95 latency in ms; most failures first. Reads otel_traces over the range (client spans only, at most 500 edges): bounded by the range for now, a rollup is for later.
WITH fh AS (
  SELECT cityHash64(TraceId, SpanId) AS h,
    countIf(class = 'validation') AS validation,
    countIf(class = 'authentication') AS authentication,
    countIf(class = 'rate_limit') AS rate_limit,
    countIf(class = 'transient') AS transient,
    countIf(class = 'permanent') AS permanent
  FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
  WHERE SpanKind = 'Client' AND ({service:String} = '' OR ServiceName = {service:String})
  GROUP BY h
)
SELECT
  ServiceName AS service,
  faultline_dependency(SpanAttributes) AS dependency,
  sum(greatest(1, toUInt16OrZero(SpanAttributes['faultline.attempts']))) AS calls,
  sum(fh.validation) AS validation,
  sum(fh.authentication) AS authentication,
  sum(fh.rate_limit) AS rate_limit,
  sum(fh.transient) AS transient,
  sum(fh.permanent) AS permanent,
  validation + authentication + rate_limit + transient + permanent AS failures,
  if(calls = 0, 0, failures / calls) AS error_rate,
  quantile(0.5)(Duration) / 1e6 AS p50_ms,
  quantile(0.95)(Duration) / 1e6 AS p95_ms
FROM otel_traces AS t
LEFT JOIN fh ON cityHash64(t.TraceId, t.SpanId) = fh.h
WHERE t.Timestamp >= {from:DateTime} AND t.Timestamp < {to:DateTime}
  AND faultline_span_kind(t.SpanKind) = 'Client'
  AND faultline_call_role(t.SpanName, t.SpanAttributes, t.StatusCode) = ''
  AND ({service:String} = '' OR t.ServiceName = {service:String})
  AND dependency != ''
GROUP BY service, dependency
ORDER BY failures DESC, calls DESC, service, dependency
LIMIT 500
