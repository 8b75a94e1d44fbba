-- name: alert_class_rate
-- description: A class-rate alert rule's count: failures of one class from one source per service and code in the complete minutes [{from}, {to}), read from the failure_codes_1m rollup (every classified failure of a CLIENT or PRODUCER span, echoes included; the rollup does not know which are first-hand).
SELECT
  ServiceName AS service,
  code,
  sum(failures) AS failures
FROM failure_codes_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND class = {class:String}
  AND source = {source:String}
  AND SpanKind IN ('Client', 'Producer')
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service, code
ORDER BY service, failures DESC, code
