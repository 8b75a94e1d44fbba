-- name: overview_timeline
-- description: Failures over time per class, bucketed by {bucket} seconds, from the calls_1m rollup. t is the bucket start in unix seconds.
SELECT
  toUnixTimestamp(toStartOfInterval(minute, toIntervalSecond({bucket:UInt32}))) AS t,
  if(class = '', 'unclassified', class) AS failure_class,
  sum(failures) AS failures
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND SpanKind != 'Server'
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY t, failure_class
HAVING failures > 0
ORDER BY t, failure_class
