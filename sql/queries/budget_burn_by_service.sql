-- name: budget_burn_by_service
-- description: Which failure class burns each service's error budget: class failures over the service's outbound calls (CLIENT spans and spans tagged with a source, successes included), divided by the budget 1 - slo. burn_rate 1 spends the budget exactly over the window.
WITH calls AS (
    SELECT ServiceName, sum(calls) AS outbound_calls
    FROM calls_1m
    WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
      AND SpanKind != 'Server'
    GROUP BY ServiceName
)
SELECT
    r.ServiceName AS service,
    r.class AS class,
    sum(r.failures) AS failures,
    any(c.outbound_calls) AS outbound_calls,
    round(failures / outbound_calls, 6) AS failure_rate,
    round(failure_rate / (1 - {slo:Float64}), 3) AS burn_rate
FROM calls_1m AS r
INNER JOIN calls AS c ON r.ServiceName = c.ServiceName
WHERE r.minute >= toStartOfMinute({from:DateTime64(3)}) AND r.minute < {to:DateTime64(3)}
  AND r.SpanKind != 'Server'
  AND r.class != ''
GROUP BY service, class
ORDER BY burn_rate DESC, service, class
