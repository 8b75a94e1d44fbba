-- name: narrowed_timeline
-- description: First-hand failures over time per class, bucketed by {bucket} seconds (t: the bucket start in unix seconds), under every filter narrowed_failures takes (service, source, class, dependency, code, none, outbound, counted with left_out, endpoint, q, version; the same rules): the Overview's timeline when it is narrowed beyond service, source, class and dependency, and the Failures page's, so that its bars add up to the groups' total.
SELECT
  toUnixTimestamp(toStartOfInterval(Timestamp, toIntervalSecond({bucket:UInt32}))) AS t,
  class AS failure_class,
  sum(weight) AS failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE (({service:String} = '' AND NOT has(splitByChar(',', {none:String}), 'service')) OR ServiceName = {service:String})
  AND (({source:String} = '' AND NOT has(splitByChar(',', {none:String}), 'source')) OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND (({dependency:String} = '' AND NOT has(splitByChar(',', {none:String}), 'dependency')) OR dependency = {dependency:String})
  AND (({code:String} = '' AND NOT has(splitByChar(',', {none:String}), 'code')) OR code = {code:String})
  AND ({outbound:UInt16} = 0 OR faultline_outbound_call(SpanKind))
  AND ({counted:String} = '' OR has(splitByChar(',', {left_out:String}), class) = ({counted:String} = 'no'))
  AND ({endpoint:String} = '' OR SpanName = {endpoint:String})
  AND ({q:String} = '' OR positionCaseInsensitiveUTF8(message, {q:String}) > 0)
  AND ({version:String} = '' OR cityHash64(TraceId, SpanId) IN (
    SELECT cityHash64(TraceId, SpanId)
    FROM otel_traces
    WHERE {version:String} != ''
      AND Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
      AND (ServiceName, SpanName) IN (
        SELECT ServiceName, SpanName FROM failures WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime})
      AND ResourceAttributes['service.version'] = {version:String}))
GROUP BY t, failure_class
ORDER BY t, failure_class
