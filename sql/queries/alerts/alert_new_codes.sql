-- name: alert_new_codes
-- description: A new-code alert rule's findings: the failure codes (source × class × code) of a service's CLIENT and PRODUCER spans first seen in [{from}, {to}) that did not occur in the prior period [{baseline_from}, {from}), with their first-hand count, first minute and an example message. Candidates come from the failure_codes_1m rollup (any occurrence, echoes included, so a code once seen only as an echo is not new); a code whose every failure in the window is an echo of a deeper one (first_hand_failures) does not alert here: it alerts where it happened.
WITH fresh AS (
  SELECT ServiceName, source, class, code
  FROM failure_codes_1m
  WHERE minute >= {baseline_from:DateTime} AND minute < {to:DateTime}
    AND faultline_outbound_call(SpanKind)
    AND ({service:String} = '' OR ServiceName = {service:String})
  GROUP BY ServiceName, source, class, code
  HAVING min(minute) >= {from:DateTime}
)
SELECT
  ServiceName AS service,
  source,
  class,
  code,
  sum(weight) AS failures,
  toUnixTimestamp(toStartOfMinute(min(Timestamp))) AS first_minute_s,
  argMin(message, Timestamp) AS example_message
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND (ServiceName, source, class, code) IN (SELECT ServiceName, source, class, code FROM fresh)
GROUP BY service, source, class, code
ORDER BY service, first_minute_s, source, class, code
