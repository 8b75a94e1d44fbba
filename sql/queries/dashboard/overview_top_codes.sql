-- name: overview_top_codes
-- description: The most frequent first-hand failure codes per service and dependency (failures.dependency) in a time range (first_hand_failures), with the span that failed, the retryable count, the last occurrence and an example message.
SELECT
  ServiceName AS service,
  dependency,
  class,
  source,
  code,
  sum(weight) AS failures,
  sumIf(weight, retryable) AS retryable_failures,
  toUnixTimestamp(max(Timestamp)) AS last_seen,
  argMax(SpanName, Timestamp) AS span,
  -- Cut for the page: a hostile span can carry a 64 Ki-character message (failures_by_class has it whole).
  substringUTF8(argMax(message, Timestamp), 1, 500) AS example_message
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
GROUP BY service, dependency, class, source, code
ORDER BY failures DESC, service, dependency, class, source, code
LIMIT {limit:UInt32}
