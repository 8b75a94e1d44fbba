-- name: narrowed_timeline
-- description: First-hand failures over time per class, bucketed by {bucket} seconds (t: the bucket start in unix seconds), under every filter narrowed_failures takes (service, source, class, dependency, code, none, outbound, counted with left_out, endpoint, q, version; the same rules): the Overview's timeline when it is narrowed beyond service, source, class and dependency, and the Failures page's, so that its bars add up to the groups' total.
SELECT
  toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS t,
  class AS failure_class,
  sum(weight) AS failures
FROM narrowed_first_hand_failures(from = {from:DateTime}, to = {to:DateTime}, service = {service:String},
    source = {source:String}, class = {class:String}, dependency = {dependency:String}, code = {code:String},
    none = {none:String}, outbound = {outbound:UInt16}, counted = {counted:String}, left_out = {left_out:String},
    endpoint = {endpoint:String}, q = {q:String}, version = {version:String})
GROUP BY t, failure_class
ORDER BY t, failure_class
