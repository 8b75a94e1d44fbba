-- name: overview_timeline
-- description: First-hand failures over time per class, bucketed by {bucket} seconds (first_hand_failures); filters: service, source, class, dependency. t is the bucket start in unix seconds.
SELECT
  toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS t,
  class AS failure_class,
  sum(weight) AS failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
GROUP BY t, failure_class
ORDER BY t, failure_class
