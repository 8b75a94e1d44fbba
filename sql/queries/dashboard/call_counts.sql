-- name: call_counts
-- description: Outbound calls and failures per service counted straight from raw otel_traces (not the rollup), with the rollup's own rules: cross-checks the error budget panel.
SELECT
  ServiceName AS service,
  count() AS calls,
  countIf(SpanAttributes['faultline.class'] != '' OR StatusCode = 'Error') AS failures
FROM otel_traces
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind != 'Server'
  AND (SpanAttributes['faultline.source'] != '' OR SpanKind = 'Client')
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service
ORDER BY service
