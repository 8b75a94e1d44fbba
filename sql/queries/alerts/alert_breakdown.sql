-- name: alert_breakdown
-- description: What a burn-rate alert's long window burned: first-hand failures of the service's logical outbound calls (first_hand_failures, CLIENT and PRODUCER spans, as budget_failures counts them) by class, source, code and the dependency called (failures.dependency, '' where no attribute named it) in [{from}, {to}).
SELECT
  class,
  source,
  code,
  dependency,
  sum(weight) AS failures
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ServiceName = {service:String}
GROUP BY class, source, code, dependency
ORDER BY failures DESC, class, source, code, dependency
