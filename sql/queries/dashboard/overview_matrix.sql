-- name: overview_matrix
-- description: Failures per class and source with the retryable ones, from the calls_1m rollup (class × source matrix and headline).
SELECT
  if(class = '', 'unclassified', class) AS failure_class,
  source,
  sum(failures) AS failures,
  sum(retryable_failures) AS retryable_failures
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY failure_class, source
HAVING failures > 0
ORDER BY failures DESC, failure_class, source
