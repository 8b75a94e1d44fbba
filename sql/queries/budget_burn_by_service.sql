-- name: budget_burn_by_service
-- description: Which failure class burns each service's error budget: first-hand failures of the service's logical outbound calls (first_hand_failures, CLIENT spans) over its logical calls (each attempt counted; no pool checkout, successful connect or transport request), divided by the allowed rate 1 - slo. burn_rate 1 spends the budget exactly over its SLO period; the share of a period's budget the window spent is burn_rate × window / period.
WITH calls AS (
    SELECT ServiceName, sum(calls) AS outbound_calls
    FROM calls_1m
    WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
      AND faultline_outbound_call(SpanKind)
    GROUP BY ServiceName
)
SELECT
    f.ServiceName AS service,
    f.class AS class,
    sum(f.weight) AS failures,
    any(c.outbound_calls) AS outbound_calls,
    round(failures / outbound_calls, 6) AS failure_rate,
    round(failure_rate / (1 - {slo:Float64}), 3) AS burn_rate
FROM first_hand_client_failures(from = toDateTime({from:DateTime64(3)}), to = toDateTime({to:DateTime64(3)})) AS f
INNER JOIN calls AS c ON f.ServiceName = c.ServiceName
WHERE f.Timestamp >= {from:DateTime64(3)}
GROUP BY service, class
ORDER BY burn_rate DESC, service, class
