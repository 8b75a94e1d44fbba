-- name: failures_by_source
-- description: Failures of outbound calls per source × class × code from the minute rollup, with the failure rate against every outbound call to that source (successes included). Empty service = all services.
WITH totals AS (
    SELECT source, sum(calls) AS source_calls
    FROM calls_1m
    WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
      AND ({service:String} = '' OR ServiceName = {service:String})
      AND SpanKind != 'Server'
    GROUP BY source
)
SELECT
    r.source AS source,
    r.class AS class,
    r.code AS code,
    sum(r.failures) AS failures,
    sum(r.retryable_failures) AS retryable_failures,
    any(t.source_calls) AS source_calls,
    round(failures / source_calls, 6) AS failure_rate
FROM calls_1m AS r
INNER JOIN totals AS t ON r.source = t.source
WHERE r.minute >= toStartOfMinute({from:DateTime64(3)}) AND r.minute < {to:DateTime64(3)}
  AND ({service:String} = '' OR r.ServiceName = {service:String})
  AND r.SpanKind != 'Server'
  AND r.class != ''
GROUP BY r.source, r.class, r.code
ORDER BY failures DESC, source, class, code
