-- name: failure_codes
-- description: First-hand failures per service, class, source and code, straight from first_hand_failures: cross-checks the top codes panel.
SELECT
  ServiceName AS service,
  class,
  source,
  code,
  sum(weight) AS failures,
  sumIf(weight, retryable) AS retryable_failures
FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({source:String} = '' OR source = {source:String})
GROUP BY service, class, source, code
ORDER BY failures DESC, service, class, source, code
