-- name: outbound_counts
-- description: What /metrics' outbound counters add for the settled minutes [{from}, {to}): logical outbound calls per service (calls_1m, as budget_calls counts them: CLIENT and PRODUCER spans, each attempt), and the failures of those calls per service, class and source, all of them (kind 'all', from failures) and the first-hand ones the budget counts (kind 'first_hand', from first_hand_failures).
SELECT 'calls' AS kind, ServiceName AS service, '' AS class, '' AS source, sum(calls) AS n
FROM calls_1m
WHERE minute >= {from:DateTime} AND minute < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
GROUP BY service
UNION ALL
SELECT 'first_hand' AS kind, ServiceName AS service, class, source, sum(weight) AS n
FROM first_hand_client_failures(from = {from:DateTime}, to = {to:DateTime})
GROUP BY service, class, source
UNION ALL
SELECT 'all' AS kind, ServiceName AS service, class, source, sum(weight) AS n
FROM failures
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime}
  AND faultline_outbound_call(SpanKind)
GROUP BY service, class, source
