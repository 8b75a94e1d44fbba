-- Dashboard (H5): one row per workflow (correlation id) in a time range, as a parameterized view so
-- the workflow panels and people at the SQL console share one definition:
--   SELECT * FROM dashboard_workflows(from = '2026-01-31 09:00:00', to = '2026-01-31 10:00:00', service = '')
-- A step is an outbound call that is not a retry (attempt 1). A workflow failed when its root server
-- span ended in Error; without a recorded root, when its last outbound call failed.
CREATE OR REPLACE VIEW dashboard_workflows AS
SELECT
    SpanAttributes['faultline.correlation_id'] AS correlation_id,
    min(Timestamp) AS started,
    max(toUnixTimestamp64Nano(Timestamp) + Duration) - min(toUnixTimestamp64Nano(Timestamp)) AS duration_ns,
    arraySort(groupUniqArray(ServiceName)) AS services,
    countIf(SpanKind != 'Server' AND toUInt16OrZero(SpanAttributes['faultline.attempt']) <= 1) AS steps,
    countIf(SpanKind != 'Server' AND toUInt16OrZero(SpanAttributes['faultline.attempt']) <= 1
        AND SpanAttributes['faultline.class'] != '') AS failed_steps,
    countIf(SpanAttributes['faultline.class'] != '') AS failures,
    countIf(toUInt16OrZero(SpanAttributes['faultline.attempt']) > 1) AS retries,
    countIf(SpanAttributes['faultline.misrouted_retry'] = 'true') AS misrouted,
    argMinIf(SpanAttributes['faultline.class'], Timestamp, SpanAttributes['faultline.class'] != '') AS first_failure_class,
    argMinIf(SpanAttributes['faultline.source'], Timestamp, SpanAttributes['faultline.class'] != '') AS first_failure_source,
    argMinIf(SpanAttributes['faultline.code'], Timestamp, SpanAttributes['faultline.class'] != '') AS first_failure_code,
    countIf(SpanKind = 'Server' AND ParentSpanId = '') AS roots,
    if(roots > 0,
       countIf(SpanKind = 'Server' AND ParentSpanId = '' AND StatusCode = 'Error') > 0,
       argMaxIf(SpanAttributes['faultline.class'], Timestamp, SpanKind != 'Server') != '') AS failed
FROM otel_traces
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanAttributes['faultline.correlation_id'] != ''
GROUP BY correlation_id
HAVING {service:String} = '' OR has(services, {service:String});
