-- name: retries_misrouted
-- description: Misrouted retries (an identical repeat after a non-retryable envelope) by service and code: the calls and the time they wasted.
SELECT
  ServiceName AS service,
  SpanAttributes['faultline.class'] AS class,
  SpanAttributes['faultline.source'] AS source,
  SpanAttributes['faultline.code'] AS code,
  count() AS wasted_calls,
  sum(Duration) AS wasted_ns,
  toUnixTimestamp(max(Timestamp)) AS last_seen,
  argMax(SpanAttributes['faultline.correlation_id'], Timestamp) AS example_correlation_id
FROM otel_traces
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanAttributes['faultline.misrouted_retry'] = 'true'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR SpanAttributes['faultline.source'] = {source:String})
GROUP BY service, class, source, code
ORDER BY wasted_calls DESC, service, code
LIMIT 100
