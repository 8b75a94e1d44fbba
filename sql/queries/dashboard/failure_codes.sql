-- name: failure_codes
-- description: Failures per class, source and code counted straight from the raw failures table (not the rollup): cross-checks the top codes panel.
SELECT
  class,
  source,
  code,
  count() AS failures,
  countIf(retryable) AS retryable_failures
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY class, source, code
ORDER BY failures DESC, class, source, code
