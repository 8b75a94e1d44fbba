-- name: failure_counts
-- description: Failures per class and source counted straight from the raw failures table (not the rollup): cross-checks the overview during incident review.
SELECT
  class,
  source,
  count() AS failures,
  countIf(retryable) AS retryable_failures
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY class, source
ORDER BY failures DESC, class, source
