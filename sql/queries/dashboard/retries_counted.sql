-- name: retries_counted
-- description: The calls_1m rows behind the Retries page's figures (retries_summary), by minute, service, source, class and code, newest first: kind = 'retries' the retries (attempt > 1), 'failed' the retries that failed again (class != ''), 'misrouted' the misrouted retries; the page's service and source filters as retries_summary takes them. counted is the row's part (a sum of span weights, as the rollup stores it); total, the same on every row, is their sum: the figure clicked.
SELECT minute, ServiceName, source, class, code, counted, sum(counted) OVER () AS total
FROM (
  SELECT
    minute,
    ServiceName,
    source,
    class,
    code,
    sum(multiIf({kind:String} = 'misrouted', misrouted, {kind:String} = 'failed' AND class = '', 0, retries)) AS counted
  FROM calls_1m
  WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
    AND SpanKind != 'Server'
    AND ({service:String} = '' OR ServiceName = {service:String})
    AND ({source:String} = '' OR source = {source:String})
    AND throwIf({kind:String} NOT IN ('retries', 'failed', 'misrouted'), 'kind is retries, failed or misrouted') = 0
  GROUP BY minute, ServiceName, source, class, code
)
WHERE counted != 0
ORDER BY minute DESC, ServiceName, source, class, code
