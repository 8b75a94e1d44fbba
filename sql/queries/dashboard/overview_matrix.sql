-- name: overview_matrix
-- description: First-hand failures per class and source with the retryable ones (class × source matrix and headline): each failure counted once, where it happened (first_hand_failures), at every span kind: a call's own failure, a server's own rejection.
SELECT
  class AS failure_class,
  source,
  count() AS failures,
  countIf(retryable) AS retryable_failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY failure_class, source
ORDER BY failures DESC, failure_class, source
