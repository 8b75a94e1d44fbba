-- name: alert_withheld
-- description: The alerts whose last webhook record is a withheld notice (state 'silenced': the alert fired while a silence matched it, so the webhook has not heard of it yet), read by the evaluator at start so a restart still delivers them once their silence ends.
SELECT alert_key
FROM alert_deliveries
WHERE receiver = 'webhook'
GROUP BY alert_key
HAVING argMax(state, at) = 'silenced'
ORDER BY alert_key
