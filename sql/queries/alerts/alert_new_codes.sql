-- name: alert_new_codes
-- description: A new-code alert rule's findings: the failure codes (source × class × code) of a service's CLIENT and PRODUCER spans first seen in [{from}, {to}) that did not occur in the prior period [{baseline_from}, {from}), read from the failure_codes_1m rollup, with their count, first minute and an example message.
SELECT
  ServiceName AS service,
  source,
  class,
  code,
  sum(failures) AS failures,
  toUnixTimestamp(min(minute)) AS first_minute_s,
  anyLast(example_message) AS example_message
FROM failure_codes_1m
WHERE minute >= {baseline_from:DateTime} AND minute < {to:DateTime}
  AND SpanKind IN ('Client', 'Producer')
  AND ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service, source, class, code
HAVING min(minute) >= {from:DateTime}
ORDER BY service, first_minute_s, source, class, code
