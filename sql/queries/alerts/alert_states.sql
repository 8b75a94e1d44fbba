-- name: alert_states
-- description: The latest transition of every alert (firing or resolved) with when it started, read by the evaluator at start so a restart neither re-pages nor forgets to resolve.
SELECT
  alert_key,
  argMax(alertname, at) AS alertname,
  argMax(service, at) AS service,
  argMax(severity, at) AS severity,
  argMax(class, at) AS class,
  argMax(state, at) AS state,
  toUnixTimestamp64Milli(argMax(started_at, at)) AS started_ms,
  toUnixTimestamp64Milli(max(at)) AS at_ms
FROM alert_events
GROUP BY alert_key
ORDER BY alert_key
