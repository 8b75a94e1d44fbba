-- name: failure_counts
-- description: First-hand failures per class and source (each failure counted once, where it happened), read from first_hand_failures over the raw failures rows, with echoes beside: cross-checks the overview's matrix during incident review.
SELECT
  class,
  source,
  sum(weight) AS failures,
  sumIf(weight, retryable) AS retryable_failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY class, source
ORDER BY failures DESC, class, source
