-- name: dependencies_codes
-- description: The most frequent first-hand failure codes of each service → dependency edge (first_hand_failures over failures.dependency, CLIENT and PRODUCER spans), at most {per_edge} per edge, with the same filters as the dependencies query.
SELECT
  ServiceName AS service,
  dependency,
  class,
  code,
  count() AS failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE SpanKind IN ('Client', 'Producer')
  AND dependency != ''
  AND ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
  AND ({class:String} = '' OR class = {class:String})
GROUP BY service, dependency, class, code
ORDER BY service, dependency, failures DESC, class, code
LIMIT {per_edge:UInt32} BY service, dependency
