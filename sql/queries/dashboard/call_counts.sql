-- name: call_counts
-- description: Logical outbound calls per service counted straight from raw otel_traces (not the rollup): CLIENT and PRODUCER spans that faultline_call_role counts, each attempt of an SDK's internal retries counted; and the service's first-hand failures of those calls. Cross-checks the error budget panel (SLI: outbound calls).
WITH first_hand AS (
  SELECT ServiceName, sum(weight) AS n
  FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
  GROUP BY ServiceName
)
SELECT
  t.ServiceName AS service,
  sum(faultline_span_weight(t.TraceState, t.SpanAttributes) * greatest(faultline_sdk_attempts(t.SpanAttributes), 1)) AS calls,
  any(f.n) AS failures
FROM otel_traces AS t
LEFT JOIN first_hand AS f ON f.ServiceName = t.ServiceName
WHERE t.Timestamp >= {from:DateTime} AND t.Timestamp < {to:DateTime}
  AND faultline_outbound_call(t.SpanKind)
  AND faultline_call_role(t.SpanName, t.SpanAttributes, t.StatusCode) = ''
  AND ({service:String} = '' OR t.ServiceName = {service:String})
GROUP BY service
ORDER BY service
