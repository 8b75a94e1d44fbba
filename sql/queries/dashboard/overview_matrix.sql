-- name: overview_matrix
-- description: First-hand failures per class, source and dependency (failures.dependency; '' for a server's own rejection or a call naming nothing) with the retryable ones (the class × source and class × dependency matrices and the headline): each failure counted once, where it happened (first_hand_failures), at every span kind: a call's own failure, a server's own rejection. Filters: service, source, class, dependency.
SELECT
  class AS failure_class,
  source,
  dependency,
  sum(weight) AS failures,
  sumIf(weight, retryable) AS retryable_failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
  AND ({class:String} = '' OR class = {class:String})
  AND ({dependency:String} = '' OR dependency = {dependency:String})
GROUP BY failure_class, source, dependency
ORDER BY failures DESC, failure_class, source, dependency
