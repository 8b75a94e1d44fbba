-- name: alert_class_rate
-- description: A class-rate alert rule's count: first-hand failures (first_hand_failures, as the budget counts them: an echo of a deeper failure is counted where it happened, not again here) of one class from one source, by service and code, of CLIENT and PRODUCER spans in the complete minutes [{from}, {to}).
SELECT
  ServiceName AS service,
  code,
  sum(weight) AS failures
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE class = {class:String}
  AND source = {source:String}
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service, code
ORDER BY service, failures DESC, code
